import ExampleSupport
import Persistence

/// A watcher of the library: handed the library's sorted list when it starts and again after
/// every commit that changes it.
///
/// `add` and `remove` start one before they write and report the list the store hands it after
/// the commit, as a "My Books" screen would refresh.
final class LibraryWatcher: Sendable {
    private let lists: AsyncStream<[LibraryBook]>
    private let continuation: AsyncStream<[LibraryBook]>.Continuation
    private let token: ObservationToken

    /// Starts watching the library, sorted by title.
    ///
    /// - Parameter library: the library to watch.
    init(_ library: Library) {
        let (lists, continuation) = AsyncStream.makeStream(of: [LibraryBook].self)
        self.lists = lists
        self.continuation = continuation
        token = library.store.observe(.query(Query<LibraryBook>(sortedBy: LibraryBook.byTitle))) { change in
            continuation.yield(change.results)
        }
    }

    /// Waits for the first list the store delivers that meets `condition` (commits may be
    /// coalesced, so the list that follows a write is recognised by its content), for at most
    /// ten seconds, then stops watching.
    ///
    /// - Parameter condition: what the list looks like once the change is committed.
    /// - Returns: the list, or nil when none came in time.
    func list(where condition: @escaping @Sendable ([LibraryBook]) -> Bool) async -> [LibraryBook]? {
        defer {
            token.cancel()
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
