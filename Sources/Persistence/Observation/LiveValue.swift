import Locking
public import Observation

/// A value read from the store, such as an aggregate or a grouped result, kept up to date on the
/// main actor.
///
/// The `@Observable` counterpart of ``ObjectStore/observe(tracking:queue:isolation:onError:read:handler:)``:
/// it runs `read` now and again after each commit that writes one of the tracked entities, and
/// publishes the result in ``value``. The read runs in SQL on the store's observation queue, so a
/// live count of a million rows never fetches them.
///
/// ```swift
/// import Observation
/// import Persistence
///
/// @MainActor final class LibraryHeader {
///     let size: LiveValue<Int>
///     init(store: ObjectStore) {
///         size = LiveValue(in: store, tracking: Book.self) { tx in try tx.count(Book.self) }
///         size.onChange = { [weak self] in self?.render() }
///     }
///     func render() { print("\(size.value ?? 0) books") }
/// }
/// ```
///
/// It observes from creation until it is released. A failed read keeps the last value and sets
/// ``error``; closing the store sets it to a ``PersistenceError/Code-swift.struct/closed`` error
/// naming the store, and updates stop.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor @Observable
public final class LiveValue<Value: Sendable> {
    /// The store the value is read from.
    @ObservationIgnored public let store: ObjectStore

    /// The last value read; `nil` before the first read has been delivered.
    public private(set) var value: Value?

    /// The last error: what a failed read threw, or a ``PersistenceError`` for an entity the store
    /// does not have or the store's closing; `nil` after a successful read.
    public private(set) var error: (any Error)?

    /// Called on the main actor after each delivery or error, for code that does not use
    /// Observation's tracking.
    @ObservationIgnored public var onChange: (@MainActor () -> Void)?

    @ObservationIgnored private let subscription = Subscription()

    /// Starts reading `read` now and after each commit that writes one of `entities`.
    ///
    /// - Parameters:
    ///   - store: the store to read.
    ///   - entities: the entities whose commits run the read again; each must be one of the store's.
    ///   - read: reads the value; it runs on the store's observation queue.
    public init(
        in store: ObjectStore, tracking entities: any StoredEntity.Type...,
        read: @escaping @Sendable (ObjectTransaction) throws -> Value
    ) {
        self.store = store
        let caller = CallerIsolation(isolation: #isolation, queue: .main)
        subscription.replace(
            with: store.observeValue(
                entities, queue: caller.queue,
                onError: caller.wrap { [weak self] (error: any Error) in
                    guard let self else { return }
                    self.error = error
                    self.onChange?()
                },
                read: read,
                handler: caller.wrap { [weak self] (value: Value) in
                    guard let self else { return }
                    self.value = value
                    self.error = nil
                    self.onChange?()
                }))
    }

    deinit {
        subscription.cancel()
    }
}
