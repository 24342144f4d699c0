import Dispatch

/// Where a completion runs.
enum Delivery: Sendable {
    /// Asynchronously on this queue.
    case queue(DispatchQueue)
    /// Synchronously on the thread that finishes the request (for the async API, which resumes a continuation).
    case immediate

    /// Runs `deliver` where this delivery says.
    func run(_ deliver: @escaping @Sendable () -> Void) {
        switch self {
        case .queue(let queue): queue.async(execute: deliver)
        case .immediate: deliver()
        }
    }
}
