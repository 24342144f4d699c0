public import Foundation

/// An `Operation` whose work ends later, on another thread: the base class to subclass.
///
/// It keeps the state machine an `OperationQueue` relies on, on Apple platforms and on
/// swift-corelibs-foundation's queue on Linux:
/// - `isExecuting` and `isFinished` are read under a lock and change with KVO
///   notifications for `"isExecuting"` and `"isFinished"` (the keys both queues observe);
/// - ``start()`` runs ``execute()`` at most once, however often and from however many
///   threads it is called;
/// - an operation cancelled before it starts never runs ``execute()``: it calls
///   ``cancelledBeforeStart()`` and finishes;
/// - ``finish()`` takes effect exactly once; later calls do nothing.
///
/// Subclass it, override ``execute()`` to start the work, and call ``finish()`` when the
/// work ends, whichever way it ends (also after cancellation). For example:
///
/// ```swift
/// final class PingOperation: AsyncOperation, @unchecked Sendable {
///     override func execute() {
///         Task { _ = try? await client.fetch(Health.ping, extracting: .data); self.finish() }
///     }
/// }
/// ```
///
/// Do not override `start()`, `isExecuting` or `isFinished`; `start()` is final.
open class AsyncOperation: Operation, @unchecked Sendable {
    // @unchecked Sendable: `state`, `started`, `finishing` and `dependents` are only touched
    // while `stateLock` is held; Operation's own state is thread-safe.
    private enum State {
        case ready, executing, finished
    }

    private let stateLock = NSLock()
    private var state = State.ready
    private var started = false
    private var finishing = false
    /// The operations that depend on this one, kept until it has finished: a queue lets a
    /// cancelled dependent go at once, while this operation still tells it when it finishes
    /// (swift-corelibs-foundation then reads a freed object; see `Docs/KnownIssues.md`).
    private var dependents: [Operation] = []

    /// Creates an operation in the ready state.
    public override init() {
        super.init()
    }

    /// Makes this operation wait for `operation`; when `operation` is an `AsyncOperation`, it
    /// also keeps this one alive until it has finished, so cancelling a queue at any moment
    /// never leaves it telling a released operation that it finished.
    ///
    /// - Parameter operation: the operation to run after.
    open override func addDependency(_ operation: Operation) {
        super.addDependency(operation)
        (operation as? AsyncOperation)?.keepUntilFinished(self)
    }

    /// Keeps `dependent` until this operation has finished (at once released if it has).
    private func keepUntilFinished(_ dependent: Operation) {
        stateLock.withLock {
            guard state != .finished else { return }
            dependents.append(dependent)
        }
    }

    /// Lets the dependents go, once the finish has been announced to them.
    private func releaseDependents() {
        let released = stateLock.withLock { () -> [Operation] in
            defer { dependents = [] }
            return dependents
        }
        withExtendedLifetime(released) {}
    }

    /// Always `true`: the work ends after ``start()`` returns.
    open override var isAsynchronous: Bool { true }

    /// Whether the operation has started and not yet finished.
    open override var isExecuting: Bool {
        stateLock.withLock { state == .executing }
    }

    /// Whether the operation has finished, by completing its work or by being cancelled.
    open override var isFinished: Bool {
        stateLock.withLock { state == .finished }
    }

    /// Starts the operation: runs ``execute()``, or finishes at once if it was cancelled.
    ///
    /// Called by the queue; a second call, from any thread, does nothing.
    public final override func start() {
        let isFirstStart = stateLock.withLock {
            guard !started else { return false }
            started = true
            return true
        }
        guard isFirstStart else { return }

        if isCancelled {
            cancelledBeforeStart()
            stateLock.withLock { finishing = true }
            willChangeValue(forKey: "isFinished")
            stateLock.withLock { state = .finished }
            didChangeValue(forKey: "isFinished")
            releaseDependents()
            return
        }
        willChangeValue(forKey: "isExecuting")
        stateLock.withLock { state = .executing }
        didChangeValue(forKey: "isExecuting")
        execute()
    }

    /// Starts the work. Override it; call ``finish()`` when the work ends.
    ///
    /// The default implementation finishes at once. Check `isCancelled` where the work can
    /// stop early, and override `cancel()` (calling `super`) to stop running work.
    open func execute() {
        finish()
    }

    /// Called instead of ``execute()`` when the operation was cancelled before it started.
    ///
    /// Override it to record a result for a cancelled operation (the operation finishes
    /// right after it returns). The default implementation does nothing.
    open func cancelledBeforeStart() {}

    /// Marks the operation finished, so the queue releases it and its dependents can start.
    ///
    /// Only the first call after ``start()`` has an effect: later calls, and calls before
    /// the operation started, do nothing.
    public final func finish() {
        let shouldFinish = stateLock.withLock {
            guard state == .executing, !finishing else { return false }
            finishing = true
            return true
        }
        guard shouldFinish else { return }
        willChangeValue(forKey: "isExecuting")
        willChangeValue(forKey: "isFinished")
        stateLock.withLock { state = .finished }
        didChangeValue(forKey: "isExecuting")
        didChangeValue(forKey: "isFinished")
        releaseDependents()
    }
}
