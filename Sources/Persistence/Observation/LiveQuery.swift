public import Observation

/// A query's current results, kept up to date on the main actor, for a screen to show.
///
/// A `LiveQuery` is `@Observable`: SwiftUI views that read ``results`` redraw when a commit changes
/// them, and UIKit, AppKit or Linux code follows it with `withObservationTracking` or the
/// ``onChange`` callback. It observes its store from creation until it is released; change
/// ``query`` to refetch with another filter, sort or limit.
///
/// ```swift
/// import Observation
/// import Persistence
///
/// @MainActor final class ShelfScreen {
///     let books: LiveQuery<Book>
///     init(store: ObjectStore) {
///         books = LiveQuery(Query<Book>(sortedBy: [Book.title.ascending()]), in: store)
///         books.onChange = { [weak self] in self?.render() }
///     }
///     func render() { print(books.results.map(\.title)) }
/// }
/// ```
///
/// The results are empty until the first fetch has been delivered (``isLoaded``); each later
/// delivery follows one or more commits that change them, with the ``changes`` a table view needs.
/// A failed refetch keeps the last results and sets ``error``; closing the store sets it to a
/// ``PersistenceError/Code-swift.struct/closed`` error naming the store, and updates stop.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor @Observable
public final class LiveQuery<Entity: StoredEntity> {
    /// The store the query reads.
    @ObservationIgnored public let store: ObjectStore

    /// The filter, sort and limit; setting it refetches.
    public var query: Query<Entity> {
        didSet { start() }
    }

    /// The query's current results, in its order.
    public private(set) var results: [Entity] = []

    /// What the last delivery changed in ``results`` (for the first, every row is inserted); `nil`
    /// before the first.
    public private(set) var changes: ChangeSet?

    /// Whether the results of the current ``query`` have been delivered.
    public private(set) var isLoaded = false

    /// The last error: a failed refetch, or the store's closing; `nil` after a successful delivery.
    public private(set) var error: PersistenceError?

    /// Called on the main actor after each delivery or error, for code that does not use
    /// Observation's tracking.
    @ObservationIgnored public var onChange: (@MainActor () -> Void)?

    @ObservationIgnored private let subscription = Subscription()
    @ObservationIgnored private var generation = 0

    /// Starts observing `query` in `store`.
    ///
    /// - Parameters:
    ///   - query: the filter, sort and limit.
    ///   - store: the store to read; it must have been opened with `Entity`.
    public init(_ query: Query<Entity>, in store: ObjectStore) {
        self.store = store
        self.query = query
        start()
    }

    deinit {
        subscription.cancel()
    }

    /// Observes the current query, replacing the previous observation.
    private func start() {
        generation += 1
        let current = generation
        isLoaded = false
        subscription.replace(
            with: store.observe(
                query,
                onError: { [weak self] error in
                    guard let self, self.generation == current else { return }
                    self.error = error
                    self.onChange?()
                },
                handler: { [weak self] change in
                    guard let self, self.generation == current else { return }
                    self.results = change.results
                    self.changes = change.changes
                    self.isLoaded = true
                    self.error = nil
                    self.onChange?()
                }))
    }
}
