import FetchKit
import Foundation
import Persistence

/// Cursors: where a page leaves the pull, and where a keyset run starts.
extension SyncedCollection {
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
