import Locking

extension FanOut {
    /// Starts a fan-out and calls `completion` exactly once, with `progress` before it, on the
    /// main actor, for UI code.
    ///
    /// The same as ``run(_:changed:queue:progress:transform:completion:)`` with `queue: .main`,
    /// but the callbacks are `@MainActor`, so a `@MainActor` screen updates its own state in them.
    ///
    /// - Parameters:
    ///   - elements: the items to process.
    ///   - changed: whether an item's value changed anything.
    ///   - mainActor: `MainActor.self`: `progress` and `completion` run on the main actor.
    ///   - progress: called after each item finishes.
    ///   - transform: the work for one item.
    ///   - completion: receives the report, exactly once.
    /// - Returns: a handle that cancels the fan-out.
    @discardableResult
    public func run<Element: Sendable, Value: Sendable>(
        _ elements: some Collection<Element> & Sendable,
        changed: @escaping @Sendable (Element, Value) -> Bool,
        on mainActor: MainActor.Type,
        progress: (@MainActor (FanOutProgress) -> Void)? = nil,
        transform: @escaping @Sendable (Element) async throws -> Value,
        completion: @escaping @MainActor (FanOutReport<Value>) -> Void
    ) -> RunHandle {
        run(
            elements, changed: changed, queue: .main, progress: progress.map(onMainActor), transform: transform,
            completion: onMainActor(completion))
    }
}
