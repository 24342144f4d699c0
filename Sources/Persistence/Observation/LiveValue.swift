import Locking
public import Observation

/// A ``StoreObservation``'s latest element, kept up to date on the main actor, for a screen to show:
/// a query's results and what changed, sections, a count or an aggregate.
///
/// A `LiveValue` is `@Observable`: SwiftUI views that read ``value`` redraw when a commit changes
/// it, and UIKit, AppKit or Linux code follows it with `withObservationTracking` or the
/// ``onChange`` callback. It observes its store from creation until it is released; set
/// ``observation`` to observe something else (another filter, sort or limit).
///
/// ```swift
/// import Observation
/// import Persistence
///
/// @MainActor final class ShelfScreen {
///     let books: LiveValue<QueryChange<Book>>
///     let size: LiveValue<Int>
///     init(store: ObjectStore) {
///         books = LiveValue(.query(Query<Book>(sortedBy: [Book.title.ascending()])), in: store)
///         size = LiveValue(.value(tracking: Book.self) { tx in try tx.count(Query<Book>()) }, in: store)
///         books.onChange = { [weak self] in self?.render() }
///     }
///     func render() { print(books.value?.results.map(\.title) ?? [], size.value ?? 0) }
/// }
/// ```
///
/// ``value`` is `nil` until the first element has been delivered; after ``observation`` changes it
/// keeps the previous observation's last element until the new one's first (``isLoaded`` tells).
/// A failed refresh keeps the last value and sets ``error``; closing the store sets it to a
/// ``PersistenceError/Code-swift.struct/closed`` error naming the store, and updates stop.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor @Observable
public final class LiveValue<Value: Sendable> {
    /// The store observed.
    @ObservationIgnored public let store: ObjectStore

    /// What is observed; setting it starts observing the new value.
    @ObservationIgnored public var observation: StoreObservation<Value> {
        didSet { start() }
    }

    /// The latest element; `nil` before the first has been delivered.
    public private(set) var value: Value?

    /// Whether the current ``observation`` has delivered its first element.
    public private(set) var isLoaded = false

    /// The last error: a failed refresh (a ``PersistenceError``, or what a value's read threw), an
    /// observation that cannot start, or the store's closing; `nil` after a successful delivery.
    public private(set) var error: (any Error)?

    /// Called on the main actor after each delivery or error, for code that does not use
    /// Observation's tracking.
    @ObservationIgnored public var onChange: (@MainActor () -> Void)?

    @ObservationIgnored private let subscription = Subscription()
    @ObservationIgnored private var generation = 0

    /// Starts observing `observation` in `store`.
    ///
    /// - Parameters:
    ///   - observation: what to observe.
    ///   - store: the store to observe.
    public init(_ observation: StoreObservation<Value>, in store: ObjectStore) {
        self.store = store
        self.observation = observation
        start()
    }

    deinit {
        subscription.cancel()
    }

    private func start() {
        generation += 1
        let current = generation
        isLoaded = false
        subscription.replace(
            with: store.observe(
                observation,
                onError: { [weak self] error in
                    guard let self, self.generation == current else { return }
                    self.error = error
                    self.onChange?()
                },
                handler: { [weak self] element in
                    guard let self, self.generation == current else { return }
                    self.value = element
                    self.isLoaded = true
                    self.error = nil
                    self.onChange?()
                }))
    }
}
