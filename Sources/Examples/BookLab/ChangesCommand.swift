import ExampleSupport
import Foundation
import Persistence
import Sync

/// `booklab changes [--drop <n>]`: the library's changes the sync server has not acknowledged,
/// numbered, each with where it is (waiting, refused with the server's reason, in conflict);
/// `--drop <n>` drops one and puts the book back as the server last had it.
struct ChangesCommand {
    let library: Library

    /// Lists the changes.
    func list() async throws {
        let changes = try await self.changes()
        guard !changes.isEmpty else {
            print("No change to your library waits for the sync server.")
            return
        }
        print("\(changes.count) \(changes.count == 1 ? "change" : "changes") not yet acknowledged by the sync server:")
        for (number, write) in changes.enumerated() {
            print("\(number + 1). \(Self.describe(write))")
        }
        let refused = changes.contains { $0.state == .rejected || $0.state == .conflicted }
        print(
            "'booklab sync' sends \(changes.count == 1 ? "it" : "them")"
                + (refused ? " (a refused one again: fix its cause first)" : "")
                + "; 'booklab changes --drop <n>' drops one.")
    }

    /// Drops change `number` (as listed), putting the book back as the server last had it.
    func drop(_ number: Int) async throws {
        let changes = try await self.changes()
        guard number >= 1, number <= changes.count else {
            throw UsageError(
                "there is no change \(number)",
                fix: changes.isEmpty
                    ? "every change is synced"
                    : "give a number from 1 to \(changes.count) ('booklab changes' lists them)")
        }
        let write = changes[number - 1]
        try await library.outbox.discard(write)
        print("Dropped: \(Self.describe(write))")
        print(
            "The book is back as the sync server last had it"
                + (write.operation == .create ? " (not in your library)." : "."))
    }

    /// The library's unacknowledged changes, in the order they are sent.
    private func changes() async throws -> [PendingWrite] {
        let outbox = library.outbox
        return try await library.store.context.read { tx in try tx.fetch(outbox.pendingWrites) }
    }

    /// `Dune — Frank Herbert (1965), rated 4 of 5; refused by the server: …`.
    static func describe(_ write: PendingWrite) -> String {
        let state: String
        switch write.state {
        case .pending:
            state =
                write.lastError == nil ? "waiting to be sent" : "waiting to be sent again (\(write.lastError ?? ""))"
        case .sending: state = "sent; its answer was not received, so it is sent again"
        case .rejected: state = "refused by the server: \(write.reason ?? "no reason given")"
        case .conflicted: state = "in conflict with a change made elsewhere"
        }
        return "\(summary(write)); \(state)"
    }

    /// The book a change is about, as the library lists it, and what the change does:
    /// `Dune — Frank Herbert (1965), rated 4 of 5`.
    static func summary(_ write: PendingWrite) -> String {
        let record = (try? write.local(as: LibraryBook.self)) ?? (try? write.base(as: LibraryBook.self)) ?? nil
        let book = record?.line ?? write.recordID
        let what: String
        switch write.operation {
        case .create: what = "added"
        case .delete: what = "removed"
        case .update:
            let before = try? write.base(as: LibraryBook.self)
            if let record, record.rating != (before ?? nil)?.rating {
                what = record.rating.map { "rated \($0) of 5" } ?? "rating cleared"
            } else {
                what = "changed"
            }
        }
        return "\(book), \(what)"
    }
}
