import Locking

extension Paginator {
    /// Runs the whole pagination, calling `onPage` for each page and `completion` once at the
    /// end, both on the main actor, for UI code.
    ///
    /// The same as ``collect(queue:onPage:completion:)`` with `queue: .main`, but the callbacks
    /// are `@MainActor`, so a `@MainActor` screen updates its own state in them:
    ///
    /// ```swift
    /// @MainActor final class SearchScreen {
    ///     var results: [Volume] = []
    ///     func show(_ pages: Paginator<Volume>) -> RunHandle {
    ///         pages.collect(on: MainActor.self) { page in
    ///             self.results += page.items
    ///         } completion: { summary in
    ///             print("\(summary.items.count) results")
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - mainActor: `MainActor.self`: the callbacks run on the main actor.
    ///   - onPage: receives each page as it arrives.
    ///   - completion: receives the summary, exactly once, after every page.
    /// - Returns: a handle that cancels the run.
    @discardableResult
    public func collect(
        on mainActor: MainActor.Type, onPage: @escaping @MainActor (Page<Item>) -> Void,
        completion: @escaping @MainActor (PaginationSummary<Item>) -> Void
    ) -> RunHandle {
        collect(queue: .main, onPage: onMainActor(onPage), completion: onMainActor(completion))
    }
}
