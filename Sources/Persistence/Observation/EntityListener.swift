import Foundation
import Locking

/// An object told the new list of an entity after every commit that changes it, such as a
/// screen that shows the list.
///
/// A listener is called on its own isolation, never off it: a `@MainActor` class (a view
/// controller, a SwiftUI model) on the main actor, an actor on itself.
///
/// ```swift
/// @MainActor final class LibraryScreen: EntityListener {
///     var books: [Book] = []
///     func entitiesDidChange(_ books: [Book]) { self.books = books }
/// }
/// store.addListener(screen, sortedBy: [Book.title.ascending(caseInsensitive: true)])
/// ```
///
/// The store holds listeners weakly; a listener that goes away is dropped.
public protocol EntityListener<Entity>: AnyObject, Sendable {
    /// The entity the listener watches.
    associatedtype Entity: StoredEntity

    /// Called with the current sorted list: once when added, then after every commit that
    /// changes the list, one call at a time, in commit order.
    ///
    /// The requirement is `async` so that a `@MainActor` (or other actor-isolated) method
    /// satisfies it: the store hops to the listener's isolation for each call. A plain
    /// synchronous method satisfies it too.
    ///
    /// - Parameter entities: the entity's rows, filtered and sorted as registered.
    func entitiesDidChange(_ entities: [Entity]) async
}

/// The store's listeners, by identity, each with the observation feeding it.
final class ListenerTable: Sendable {
    private let tokens = Locked<[ObjectIdentifier: ObservationToken]>([:])

    func set(_ token: ObservationToken, for listener: AnyObject) {
        let old = tokens.withLock { $0.updateValue(token, forKey: ObjectIdentifier(listener)) }
        old?.cancel()
    }

    func remove(_ listener: AnyObject) {
        let old = tokens.withLock { $0.removeValue(forKey: ObjectIdentifier(listener)) }
        old?.cancel()
    }

    func remove(id: ObjectIdentifier, token: ObservationToken) {
        tokens.withLock { tokens in
            if tokens[id] === token { tokens[id] = nil }
        }
        token.cancel()
    }
}
