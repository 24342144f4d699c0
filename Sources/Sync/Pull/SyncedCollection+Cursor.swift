import FetchKit
import Foundation
import Persistence

/// Cursors: where a page leaves the pull, where a keyset run starts, and the page requested ahead.
extension SyncedCollection {
    /// Whether keyset cursor `a` comes before `b`.
    static func precedes(_ a: SyncCursor, _ b: SyncCursor) -> Bool {
        guard case .keyset(let va, let ia) = a, case .keyset(let vb, let ib) = b else { return true }
        if va != vb { return va < vb }
        return Array(ia.utf8).lexicographicallyPrecedes(ib.utf8)
    }

    /// The position after `page`.
    func nextPosition(after page: ChangePage<Entity>, at position: SyncCursor?) throws(SyncError) -> SyncCursor? {
        if let cursor = page.cursor, remote.changes.cursor != .snapshot {
            switch (remote.changes.cursor, cursor) {
            case (.keyset, .keyset), (.token, .token): return cursor
            default:
                throw SyncError(
                    .undecodablePage, collection: remote.name, page: position.map(Self.describe),
                    "A page of \(remote.name) gives the cursor \(Self.describe(cursor)), which is not of the "
                        + "collection's kind (\(remote.changes.cursor)); see ChangePage.cursor.")
            }
        }
        switch remote.changes.cursor {
        case .snapshot:
            if case .page(let number) = position { return .page(number + 1) }
            return .page(2)
        case .token:
            guard !page.hasMore else {
                throw SyncError(
                    .undecodablePage, collection: remote.name, page: position.map(Self.describe),
                    "A page of \(remote.name) says more follow but its reader returned no token (ChangePage.cursor).")
            }
            return position
        case .keyset:
            guard let last = page.records.last else { return position }
            guard let version = remote.changes.version?(last) else {
                throw SyncError(
                    .undecodablePage, collection: remote.name, record: last.id.databaseValue.identityText,
                    "The record \(remote.name)/\(last.id.databaseValue.identityText) has no version for the keyset cursor."
                )
            }
            return .keyset(version: version, id: last.id.databaseValue.identityText)
        }
    }

    /// The cursor a keyset run starts from: the overlap before the last applied record.
    func shifted(_ cursor: SyncCursor?) -> SyncCursor? {
        guard case .keyset(let version, _) = cursor, case .keyset(let overlap) = remote.changes.cursor else {
            return cursor
        }
        switch (overlap, version) {
        case (.none, _):
            return cursor
        case (.units(let units), .number(let number)):
            return .keyset(version: .number(number - units), id: "")
        case (.time(let window), .text(let text)):
            guard let earlier = Timestamp.shift(text, by: -window.timeInterval) else { return cursor }
            return .keyset(version: .text(earlier), id: "")
        default:
            return cursor
        }
    }
}

/// A page requested while the page before it is applied: the pull asks for the next page as soon
/// as it knows where that page starts, so the server's answer and the store's commit overlap.
struct PageAhead: Sendable {
    /// Where the page starts.
    let position: SyncCursor?
    let request: Task<Exchange, any Error>

    init<Entity: StoredEntity & Sendable>(
        _ collection: SyncedCollection<Entity>, _ position: SyncCursor?, _ endpoint: any Endpoint
    ) {
        self.position = position
        request = Task { try await collection.exchange(endpoint) }
    }

    /// The page's answer; cancelling the caller cancels the request.
    func answer() async throws(FetchError) -> Exchange {
        let request = request
        do {
            return try await withTaskCancellationHandler {
                try await request.value
            } onCancel: {
                request.cancel()
            }
        } catch let error as FetchError {
            throw error
        } catch {
            throw FetchError(code: .cancelled, detail: "the pull was cancelled")
        }
    }
}
