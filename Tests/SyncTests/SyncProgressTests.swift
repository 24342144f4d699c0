import FetchKit
import Foundation
import Locking
import Persistence
import Sync
import Testing

/// The progress of a pull, as a UI follows it: records, pages, bytes and the estimate.
@Suite struct SyncProgressTests {
    @Test func aFirstSyncShowsItsProgressPageByPageThenClearsIt() async throws {
        let fixture = try LibraryFixture()
        fixture.backend.put("authors", "a1", ["name": "Terry Pratchett"])
        for number in 1...25 {
            fixture.backend.put("books", "b\(number)", ["title": "Discworld \(number)", "authorID": "a1"])
        }
        try await fixture.authors().sync()
        let books = try fixture.books(pageSize: 10)
        let seen = try await Self.progress(of: books.statusUpdates) { try await books.sync() }
        let progress = seen.compactMap { $0 }
        #expect(progress.map(\.recordsApplied) == [10, 20, 25])
        #expect(progress.map(\.pagesApplied) == [1, 2, 3])
        #expect(progress.allSatisfy { $0.expectedRecords == 25 })
        #expect(progress.map(\.fractionCompleted) == [0.4, 0.8, 1.0])
        #expect(zip(progress, progress.dropFirst()).allSatisfy { $0.bytesReceived < $1.bytesReceived })
        #expect(seen.last == .some(nil))
        #expect(await books.status.progress == nil)
    }

    @Test func aGroupsProgressAddsUpItsCollections() async throws {
        let fixture = try LibraryFixture()
        fixture.backend.put("authors", "a1", ["name": "Terry Pratchett"])
        for number in 1...25 {
            fixture.backend.put("books", "b\(number)", ["title": "Discworld \(number)", "authorID": "a1"])
        }
        let library = try SyncGroup(try fixture.authors(), try fixture.books(pageSize: 10))
        let seen = try await Self.progress(of: library.statusUpdates) { try await library.sync() }
        let progress = seen.compactMap { $0 }
        #expect(progress.map(\.recordsApplied) == [1, 11, 21, 26])
        // No estimate until the books' pull has begun: the authors' alone would read 100 %.
        #expect(progress.map(\.expectedRecords) == [nil, 26, 26, 26])
        #expect(progress.last?.fractionCompleted == 1)
        #expect(seen.last == .some(nil))
    }

    /// The progress values `updates` delivers while `run` runs, ending with the run's end.
    static func progress(
        of updates: AsyncStream<SyncStatus>, during run: @escaping @Sendable () async throws -> Void
    ) async throws -> [SyncProgress?] {
        let seen = Locked<[SyncProgress?]>([])
        let started = AsyncStream<Void>.makeStream()
        let following = Task {
            var syncing = false
            for await status in updates {
                started.continuation.yield()
                if status.isSyncing { syncing = true }
                // Other fields change too (the counts, the dates): each progress once.
                if syncing {
                    seen.withLock { if $0.isEmpty || $0.last! != status.progress { $0.append(status.progress) } }
                }
                if syncing, !status.isSyncing { return }
            }
        }
        // The first status (before the run) arrives before the run starts.
        for await _ in started.stream { break }
        try await run()
        await following.value
        return seen.withLock { $0 }
    }
}
