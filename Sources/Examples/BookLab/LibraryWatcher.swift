import ExampleSupport
import Persistence

/// A listener of the library: told the library's sorted list when it registers and again
/// after every commit that changes it.
///
/// `add` and `remove` register one before they write and report the list the store hands it
/// after the commit, as a "My Books" screen would refresh.
final class LibraryWatcher: EntityListener, Sendable {
    typealias Entity = LibraryBook

    private let lists: AsyncStream<[LibraryBook]>
    private let continuation: AsyncStream<[LibraryBook]>.Continuation
    private let store: ObjectStore

    /// Registers a watcher on the library, sorted by title.
    ///
    /// - Parameter library: the library to watch.
    init(_ library: Library) {
        (lists, continuation) = AsyncStream.makeStream()
        store = library.store
        store.addListener(self, sortedBy: LibraryBook.byTitle)
    }

    /// Receives the library's sorted list.
    ///
    /// - Parameter entities: every book, by title.
    func entitiesDidChange(_ entities: [LibraryBook]) {
        continuation.yield(entities)
    }

    /// Waits for the first list the store delivers that meets `condition` (commits may be
    /// coalesced, so the list that follows a write is recognised by its content), for at most
    /// ten seconds, then stops listening.
    ///
    /// - Parameter condition: what the list looks like once the change is committed.
    /// - Returns: the list, or nil when none came in time.
    func list(where condition: @escaping @Sendable ([LibraryBook]) -> Bool) async -> [LibraryBook]? {
        defer {
            store.removeListener(self)
            continuation.finish()
        }
        let lists = lists
        return await withTaskGroup(of: [LibraryBook]?.self) { group in
            group.addTask {
                for await list in lists where condition(list) { return list }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(10))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}
