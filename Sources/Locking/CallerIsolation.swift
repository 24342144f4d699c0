package import Dispatch

/// Runs callbacks in the isolation of the code that registered them: the pattern behind every
/// callback API of FetchKit and Persistence (`isolation: isolated (any Actor)? = #isolation`
/// beside a plain escaping closure): one form for every caller.
///
/// The API that owns the callbacks calls each wrapped callback on ``queue``, one at a time, in
/// the order the values come, and the wrapper runs the caller's closure where the caller was:
/// - isolated to no actor: on ``queue`` itself (the API's serial queue, or the one the app set
///   for it: a client's or a store's `callbackQueue`);
/// - on the main actor: ``queue`` is the main queue, where the main actor runs, and the closure
///   runs in it synchronously (no hop, no reordering);
/// - on another actor: the closures go, in order, to one task isolated to that actor, which runs
///   them one at a time; the task ends when the last wrapper is released.
///
/// The caller's closures are not `Sendable`: ``wrap(_:)`` carries each (`nonisolated(unsafe)`)
/// only to the isolation it was formed in (the main queue for the main actor, the one task
/// isolated to the actor, or ``queue`` for code isolated to no actor, which hands them over with
/// the call), and nowhere else.
package struct CallerIsolation: Sendable {
    private enum Target: Sendable {
        case queue
        case mainActor
        case actor(ActorJobs)
    }

    /// The callbacks bound for one actor, in order; the task that runs them ends when the last
    /// wrapper holding this is released.
    private final class ActorJobs: Sendable {
        let continuation: AsyncStream<@Sendable () -> Void>.Continuation

        init(_ continuation: AsyncStream<@Sendable () -> Void>.Continuation) {
            self.continuation = continuation
        }

        deinit {
            continuation.finish()
        }
    }

    /// The queue the owning API calls the wrapped callbacks on.
    package let queue: DispatchQueue
    private let target: Target

    /// Captures the caller's isolation.
    ///
    /// - Parameters:
    ///   - isolation: the caller's isolation (`#isolation` at the public API).
    ///   - queue: the queue for a caller isolated to no actor.
    package init(isolation: isolated (any Actor)?, queue: @autoclosure () -> DispatchQueue) {
        if isolation == nil {
            self.queue = queue()
            target = .queue
        } else if isolation is MainActor {
            self.queue = .main
            target = .mainActor
        } else {
            self.queue = DispatchQueue(label: "FetchKit.CallerIsolation")
            let (jobs, continuation) = AsyncStream.makeStream(of: (@Sendable () -> Void).self)
            target = .actor(ActorJobs(continuation))
            Task {
                _ = isolation
                for await job in jobs { job() }
            }
        }
    }

    /// Wraps `body` to be called on ``queue``.
    package func wrap<T: Sendable>(_ body: @escaping (T) -> Void) -> @Sendable (T) -> Void {
        nonisolated(unsafe) let body = body
        switch target {
        case .queue:
            return { value in body(value) }
        case .mainActor:
            return { value in MainActor.assumeIsolated { body(value) } }
        case .actor(let jobs):
            // The wrapper keeps `jobs` (so its task) alive as long as it may be called.
            return { value in _ = jobs.continuation.yield { body(value) } }
        }
    }
}
