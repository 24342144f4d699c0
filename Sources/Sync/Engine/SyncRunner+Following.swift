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
        _ notifications: ChangeNotifications, client: FetchClient, collection: String, engine: SyncEngine,
        generation: Int
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
                if Task.isCancelled { return }
                if error.code == .cancelled {
                    // Cancelled from elsewhere (the client's cancelAll()), not stopped: connect again.
                    stepFailure = SyncError(
                        .requestFailed, collection: collection,
                        "The connection to the change notifications was cancelled.")
                } else {
                    // The event source ended for good (it reconnects after a broken connection itself).
                    await engine.notificationsEnded(ended(collection, by: error), generation: generation)
                    return
                }
            }
            if Task.isCancelled { return }
            guard let failure = stepFailure else {
                // The server answered 204 No Content: it has no notifications to send.
                await engine.notificationsEnded(nil, generation: generation)
                return
            }
            failures += 1
            guard failure.isTransient || failure.fetchError?.code == .cancelled,
                failures < notifications.reconnection.maximumAttempts ?? Int.max
            else {
                await engine.notificationsEnded(failure, generation: generation)
                return
            }
            do {
                try await notifications.reconnection.pause(afterFailures: failures, on: client.configuration.clock)
            } catch {
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
}
