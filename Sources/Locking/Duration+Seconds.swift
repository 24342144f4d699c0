package import Foundation

/// Conversions between `Duration` and the `TimeInterval`, `DispatchTime` and text the
/// modules hand to Foundation, Dispatch, SQLite and people.

extension Duration {
    /// The duration in seconds, as a `TimeInterval`.
    package var timeInterval: TimeInterval {
        let parts = components
        return TimeInterval(parts.seconds) + TimeInterval(parts.attoseconds) / 1e18
    }

    /// A duration from a `TimeInterval` (negative values become zero).
    package static func interval(_ seconds: TimeInterval) -> Duration {
        guard seconds.isFinite, seconds > 0 else { return .zero }
        return .nanoseconds(Int64((min(seconds, 1e9) * 1e9).rounded()))
    }

    /// A short readable form such as `250 ms` or `1.5 s`.
    package var readable: String {
        let seconds = timeInterval
        if seconds < 1 { return "\(Int((seconds * 1000).rounded())) ms" }
        let rounded = (seconds * 10).rounded() / 10
        return rounded == rounded.rounded() ? "\(Int(rounded)) s" : "\(rounded) s"
    }

    /// A `DispatchTime` this far from now.
    package var fromNow: DispatchTime {
        let nanoseconds = Int(min(timeInterval, 1e9) * 1e9)
        return .now() + .nanoseconds(max(0, nanoseconds))
    }
}
