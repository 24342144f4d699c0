import Dispatch
import ExampleSupport
import FetchKit
import Foundation
import Persistence

extension FlickrProgram {
    /// Something the watch loop hears about.
    enum WatchEvent: Sendable {
        /// A run of the periodic fetcher ended (its outcome is nil when it was a run that
        /// began after a stop was asked for, and did nothing).
        case run(PeriodicRun<FetchReport?>)
        /// Ctrl-C (SIGINT).
        case interrupt
    }

    /// Whether a run is going on, and whether a stop was asked for: one lock, so a run
    /// either starts before the stop (and is waited for) or sees the stop and does nothing.
    struct WatchState {
        var stopping = false
        var runInProgress = false
        var runsBegun = 0
        /// The most runs to begin (`--runs`), or nil.
        var limit: Int?

        /// Marks a run as begun and returns its number, or nil when the watch is stopping
        /// or has begun its last run.
        mutating func beginRun() -> Int? {
            guard !stopping, limit.map({ runsBegun < $0 }) ?? true else { return nil }
            runInProgress = true
            runsBegun += 1
            return runsBegun
        }
    }

    /// `flickr watch`: fetches every `interval` with a `PeriodicFetcher` (a tick that comes
    /// while a fetch runs is skipped and reported), until `runs` runs or Ctrl-C.
    ///
    /// On the first Ctrl-C no further run starts; the run going on finishes its attempt in
    /// flight (with no retry after it) and commits what it got, then the summary is the interruption line and the program exits 130. A second Ctrl-C
    /// stops at once (the run going on is cancelled; its `persist` is all or nothing, so
    /// nothing is half-stored).
    static func watch(live: Bool, interval: Duration, runs limit: Int?, store path: String?) async throws {
        let (source, store) = try openSource(live: live, store: path)
        let fetcher = try makeFetcher(source: source, store: store, progress: nil)
        let state = Protected(WatchState(limit: limit))
        let (events, sink) = AsyncStream.makeStream(of: WatchEvent.self)

        let periodic = PeriodicFetcher<FetchReport?>(every: interval) {
            guard let number = state.withLock({ $0.beginRun() }) else { return nil }
            say("run \(number): fetching…")
            do {
                return try await fetcher.fetch()
            } catch {
                // No run after one that retrying cannot fix.
                if isFatal(error) { state.withLock { $0.stopping = true } }
                throw error
            }
        } onRun: { run in
            sink.yield(.run(run))
        }

        Interrupts.takeOver { _ in sink.yield(.interrupt) }

        let limitText = limit.map { "stopping after \(FetchReport.count($0, "run")); " } ?? ""
        say(
            "watching \(source.origin) every \(IntervalText.format(interval)) (\(limitText)Ctrl-C stops)")
        periodic.start()

        var totals = WatchTotals()
        var fatal: (any Error)?
        loop: for await event in events {
            switch event {
            case .run(let run):
                state.withLock { $0.runInProgress = false }
                let stopping = state.withLock { $0.stopping }
                totals.skippedTicks += run.skippedTicks
                switch run.result {
                case .success(nil):
                    break
                case .success(let report?):
                    totals.record(report)
                    say("run \(totals.runs): \(report.summary)\(skippedText(run.skippedTicks))")
                case .failure(let error):
                    totals.failedRuns += 1
                    totals.runs += 1
                    say(
                        "run \(totals.runs) failed: \(ExampleProgram.oneLine(error))\(skippedText(run.skippedTicks))"
                    )
                    if isFatal(error) {
                        fatal = error
                        break loop
                    }
                }
                if stopping || (limit.map { totals.runs >= $0 } ?? false) { break loop }
            case .interrupt:
                let (wasStopping, busy) = state.withLock { state in
                    defer { state.stopping = true }
                    return (state.stopping, state.runInProgress)
                }
                periodic.pause()
                if wasStopping {
                    say("interrupted again: stopping without waiting for the fetch in progress")
                    break loop
                }
                // Nothing to wait for: the summary (the interruption line) says the rest.
                guard busy else { break loop }
                // The attempt in flight may finish; no retry starts after it.
                fetcher.stopRetrying()
                say("interrupted: stopping after the fetch in progress (Ctrl-C again to stop at once)")
            }
        }
        periodic.stop()
        sink.finish()
        if let fatal { throw fatal }

        let stored = (try? await store.context.read { tx in try tx.count(Query<Photo>()) }) ?? totals.lastStored
        let summary =
            "watch stopped after \(FetchReport.count(totals.runs, "run")): \(totals.new) new photos, "
            + "\(FetchReport.count(totals.skippedTicks, "tick")) skipped while a fetch ran, "
            + "\(FetchReport.count(totals.failedRuns, "failed run")); the store holds \(FetchReport.count(stored, "photo"))"
        // After Ctrl-C the summary is the program's interruption line (status 130).
        if Interrupts.wereRequested {
            Interrupts.keep(summary)
        } else {
            say(summary)
        }
    }

    /// Whether a failed run should end the watch: Flickr refused the key, the store failed,
    /// or the request cannot be built. A failed transfer is tried again at the next tick.
    private static func isFatal(_ error: any Error) -> Bool {
        if let error = error as? FetchError {
            return [.invalidURL, .invalidRequest, .fileUnavailable].contains(error.code)
        }
        return (error as? FlickrError)?.isFatal == true
    }

    private static func skippedText(_ ticks: Int) -> String {
        ticks == 0 ? "" : " (\(FetchReport.count(ticks, "tick")) skipped while the previous fetch ran)"
    }
}

/// What a watch has done so far.
struct WatchTotals {
    var runs = 0
    var new = 0
    var failedRuns = 0
    var skippedTicks = 0
    var lastStored = 0

    mutating func record(_ report: FetchReport) {
        runs += 1
        new += report.new
        lastStored = report.stored
    }
}
