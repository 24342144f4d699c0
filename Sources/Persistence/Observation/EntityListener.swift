import Foundation
import Locking

/// An object told the new list of an entity after every commit that changes it: the seed's
/// `DatabaseListener` with `onBookListChange(bookList:)`.
///
/// ```swift
/// final class LibraryScreen: EntityListener {
///     func entitiesDidChange(_ books: [Book]) { show(books) }
/// }
/// store.addListener(screen, sortedBy: [Book.title.ascending(caseInsensitive: true)], on: .main)
/// ```
///
/// The store holds listeners weakly; a listener that goes away is dropped.
public protocol EntityListener<Entity>: AnyObject {
    /// The entity the listener watches.
    associatedtype Entity: StoredEntity

    /// Called on the listener's queue with the current sorted list: once when added, then after
    /// every commit that changes the list.
    ///
    /// - Parameter entities: the entity's rows, filtered and sorted as registered.
    func entitiesDidChange(_ entities: [Entity])
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
