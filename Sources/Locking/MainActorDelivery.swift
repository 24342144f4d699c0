import Dispatch

/// Wraps a main-actor callback for queue-based delivery (FetchKit's and Persistence's
/// `on: MainActor.self` forms): the wrapper is given to a callback API with `queue: .main`, so it
/// always runs on the main queue, where the main actor runs, and enters the actor synchronously
/// (no hop, no reordering).
package func onMainActor<T: Sendable>(_ body: @escaping @MainActor (T) -> Void) -> @Sendable (T) -> Void {
    { value in MainActor.assumeIsolated { body(value) } }
}
