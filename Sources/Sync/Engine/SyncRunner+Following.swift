import FetchKit
import Foundation

extension SyncRunner {
    /// Follows `notifications` until the task is cancelled (``stop()``) or they end for good:
    /// each notification, and each connection as the protocol says (once open, or once
    /// subscribed), asks the engine for a pull.
    ///
    /// The event source reconnects after a broken connection by itself. A step of the protocol
    /// that fails on the way (a subscription the server could not take now) closes the connection
    /// and opens a new one after the reconnection's wait; one that cannot succeed (refused
    /// credentials, an unknown address) ends following, as a connection refused for good does.
    static func follow(
        _ notifications: ChangeNotifications, client: FetchClient, collection: String, engine: SyncEngine
    ) async {
        var failures = 0
        while !Task.isCancelled {
            var opened: (@Sendable () async -> Void)?
            if notifications.pullsWhenOpened { opened = { await engine.changeAnnounced() } }
            let source = EventSource(
                notifications.endpoint, client: client, reconnection: notifications.reconnection, opened: opened)
            var stepFailure: SyncError?
            do throws(FetchError) {
                // Dropping the iterator (a failed step) closes its connection.
                var events = source.makeAsyncIterator()
                while stepFailure == nil, let event = try await events.next() {
                    do throws(SyncError) {
                        if try await notifications.reading(event, client, collection) { await engine.changeAnnounced() }
                        failures = 0
                    } catch {
                        stepFailure = error
                    }
                }
            } catch {
                // The event source ended for good (it reconnects after a broken connection itself).
                if error.code != .cancelled { await engine.notificationsEnded(ended(collection, by: error)) }
                return
            }
            guard let failure = stepFailure else {
                // The server answered 204 No Content: it has no notifications to send.
                if !Task.isCancelled { await engine.notificationsEnded(nil) }
                return
            }
            if failure.fetchError?.code == .cancelled { return }
            failures += 1
            guard failure.isTransient, failures < notifications.reconnection.maximumAttempts ?? Int.max else {
                await engine.notificationsEnded(failure)
                return
            }
            guard await wait(after: failures, notifications.reconnection, clock: client.configuration.clock) else {
                return
            }
        }
    }

    /// The error that ended following.
    private static func ended(_ collection: String, by error: FetchError) -> SyncError {
        SyncError(
            .requestFailed, collection: collection,
            "Following the server's change notifications stopped: \(error.localizedDescription). "
                + "Pushes and sync() go on; start the collection again once the cause is fixed.",
            fetchError: error)
    }

    /// Waits before the next connection after `failures` failed in a row: the reconnection's
    /// delay, doubled for each failure after the first, up to its maximum; `false` when
    /// cancelled.
    private static func wait(
        after failures: Int, _ reconnection: EventSource.Reconnection, clock: any Clock<Duration>
    )
        async -> Bool
    {
        var delay = reconnection.delay
        for _ in 0..<min(max(failures - 1, 0), 30) where delay < reconnection.maximumDelay { delay *= 2 }
        return await sleep(clock, for: min(delay, reconnection.maximumDelay))
    }

    private static func sleep<C: Clock<Duration>>(_ clock: C, for delay: Duration) async -> Bool {
        do {
            try await clock.sleep(until: clock.now.advanced(by: delay), tolerance: nil)
            return true
        } catch {
            return false
        }
    }
}
