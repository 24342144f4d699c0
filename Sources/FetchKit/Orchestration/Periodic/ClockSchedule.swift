/// A clock reduced to what a periodic schedule needs: the time since the schedule began,
/// and a sleep until an offset from then. It erases the clock's instant type.
struct ClockSchedule: Sendable {
    let elapsed: @Sendable () -> Duration
    let sleepUntil: @Sendable (Duration) async throws -> Void

    /// A schedule that begins now on `clock`.
    static func starting<C: Clock>(on clock: C) -> ClockSchedule where C.Duration == Duration {
        let origin = clock.now
        return ClockSchedule(
            elapsed: { origin.duration(to: clock.now) },
            sleepUntil: { offset in try await clock.sleep(until: origin.advanced(by: offset), tolerance: nil) }
        )
    }
}
