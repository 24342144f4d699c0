import FetchKit
import Foundation
import Persistence
import Sync

// The worker's second mode, for the PocketBase interop suite: one sync of a library group (the
// `authors` and `novels` collections, a novel's `author` a relation) against a real PocketBase,
// in a process the test can kill.
//
//     SyncWorker library <store file> <server URL>
//
// Environment: SYNC_WORKER_TOKEN, the signed-in user's token (sent as a bearer token). The
// store's scopes are the ones the test set (a store keeps them); novels are read two a page so
// that a scope's walk has several pages to be killed between.

/// An author, as the interop suite's library sample stores it (the same entity, table and columns).
struct Author: StoredEntity {
    var id: String
    var name: String
    var updated: String?
}

/// A novel, as the interop suite's library sample stores it.
struct Novel: StoredEntity {
    var id: String
    var title: String
    var author: String
    var updated: String?
    static let writtenBy = ToOne<Novel, Author>(Field("author"), onDelete: .cascade)
    static let relations: [any Relation<Novel>] = [writtenBy]
}

/// The worker cannot sign in again: a refused token ends its run.
struct TokenRefused: Error {}

/// One sync of the library; the exit status.
func syncLibrary(store path: String, server: URL, token: String) async -> Int32 {
    let store: ObjectStore
    do {
        store = try ObjectStore(
            at: URL(fileURLWithPath: path), entities: [Author.self, Novel.self] + SyncSchema.entities)
    } catch {
        FileHandle.standardError.write(Data("SyncWorker: \(error)\n".utf8))
        return 1
    }
    defer { store.close() }
    let client = FetchClient {
        $0.authenticator = TokenAuthenticator(token: token, placement: .bearer) { throw TokenRefused() }
    }
    do {
        let authors = try SyncedCollection(
            .pocketBase("authors", at: server, version: \Author.updated), store: store, client: client)
        let novels = try SyncedCollection(
            .pocketBase("novels", at: server, version: \Novel.updated, pageSize: 2), store: store, client: client)
        let library = try SyncGroup(authors, novels)
        let report = try await library.sync()
        print("sent \(report.writesSent), applied \(report.recordsApplied), pages \(report.pagesApplied)")
        return 0
    } catch {
        FileHandle.standardError.write(Data("SyncWorker: \(error)\n".utf8))
        return 1
    }
}
