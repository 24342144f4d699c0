import ExampleSupport
import FetchKit
import Foundation
import Persistence
import Sync

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The library as a mirror of a PocketBase `books` collection: how a book is a record, and the
/// conflict rule.
///
/// A sample, not a library type: the record's fields, the soft delete and the way an id is
/// chosen are this app's, and ``RemoteCollection`` is already the one way to describe a
/// collection (the Sync article shows this description as its PocketBase walk-through).
///
/// - Ids: every book keeps its record's PocketBase id (``LibraryBook/recordID``, the collection's
///   `serverID`), whoever created the record: the admin UI, a script, another app, this device.
///   Updates and removals are addressed with it. A book this device adds proposes an id worked
///   out from the volume id (``proposedID(volume:)``; PocketBase wants 15 characters of
///   `[a-z0-9]`), so two devices that add one volume create one record (the second create meets
///   `400 validation_not_unique` and is confirmed by a read).
/// - Removal: a `PATCH` that sets `deleted`, so other devices pull it as a tombstone; a record
///   another client deleted outright is found by listing the ids (every sync).
/// - Covers: the record's `cover` file field (``LibraryBook/cover``): a cover set here goes up
///   with the book's next write, and another device downloads it when asked (`booklab cover`).
/// - Conflicts: changes to different fields never conflict (an update sends only the fields it
///   changed, and the collection merges the rest). Two ratings of one book: the first to reach
///   the server wins. A removal wins over a rating on either side. The device whose rating lost,
///   or was dropped with a book removed elsewhere, is told (``Conflicts``).
enum BookSync {
    /// The records read per page.
    static let pageSize = 200

    /// The collection's description, at `server` (the PocketBase root, such as `http://127.0.0.1:8090`).
    static func collection(server: URL, name: String = "books") -> RemoteCollection<LibraryBook> {
        let records = "/api/collections/\(name)/records"
        var books = RemoteCollection<LibraryBook>(
            "books",
            changes: .keyset(
                version: { book in book.serverUpdated.map(RecordVersion.init) },
                request: { cursor in
                    var query = [
                        URLQueryItem(name: "sort", value: "updated,id"), URLQueryItem(name: "skipTotal", value: "1"),
                        URLQueryItem(name: "perPage", value: String(pageSize)),
                    ]
                    if case .keyset(let version, let id) = cursor {
                        // PocketBase compares its timestamps as text: the server's own string is sent back.
                        let time = quoted(version.description)
                        query.append(
                            URLQueryItem(
                                name: "filter",
                                value: "(updated > \(time) || (updated = \(time) && id > \(quoted(id))))"))
                    }
                    return PocketBaseRequest(server: server, path: records, query: query)
                },
                page: Extraction.decode(RecordPage.self).map { page in
                    var books: [LibraryBook] = []
                    var removed: [String] = []
                    for record in page.items {
                        if record.deleted == true { removed.append(record.volumeId) } else { books.append(record.book) }
                    }
                    let cursor = page.items.last.map { SyncCursor.keyset(version: .text($0.updated), id: $0.id) }
                    return ChangePage(
                        records: books, deleted: removed, hasMore: page.items.count == pageSize, cursor: cursor)
                }),
            writes: RecordWrites(
                create: { book in
                    var fields = Fields(book)
                    fields.id = address(of: book)
                    return PocketBaseRequest(server: server, path: records, method: .post, body: .json(fields))
                },
                // Only the fields changed since the base: a rating sent from here never carries back a
                // title another device or an admin changed meanwhile, and the reverse.
                update: { book, base in
                    PocketBaseRequest(
                        server: server, path: "\(records)/\(address(of: book))", method: .patch,
                        body: .json(ChangedFields(Fields(book), since: base.map(Fields.init))))
                },
                delete: { book in
                    PocketBaseRequest(
                        server: server, path: "\(records)/\(address(of: book))", method: .patch,
                        body: .json(["deleted": true]))
                },
                read: { book in PocketBaseRequest(server: server, path: "\(records)/\(address(of: book))") },
                // A removed record is no book: the row stays gone. An answer that is not a record
                // throws: the write stays queued.
                written: Extraction.decode(Record.self).map { record in record.deleted == true ? nil : record.book },
                conflictCheck: .readBeforeWrite))
        // PocketBase chooses a record's id; the app's own key is the volume id.
        books.serverID = \LibraryBook.recordID
        books.identities = IdentityListing(
            every: .zero,
            request: { after in
                var filter = "deleted = false"
                if let after { filter += " && volumeId > \(quoted(after))" }
                return PocketBaseRequest(
                    server: server, path: records,
                    query: [
                        URLQueryItem(name: "fields", value: "volumeId"), URLQueryItem(name: "sort", value: "volumeId"),
                        URLQueryItem(name: "skipTotal", value: "1"), URLQueryItem(name: "perPage", value: "1000"),
                        URLQueryItem(name: "filter", value: filter),
                    ])
            },
            page: Extraction.decode(IdentityPage.self).map { page in
                (page.items.map(\.volumeId), page.items.count == 1000)
            })
        // The server's books hold no publisher, summary or cover: this device keeps its own.
        books.keeping = [
            .keep(LibraryBook.publisherField), .keep(LibraryBook.publishedDateField),
            .keep(LibraryBook.summaryField), .keep(LibraryBook.thumbnailURLField),
        ]
        books.batch = batch(server: server)
        // A book's cover is a file of the record (sent with the book's write, downloaded when asked).
        books.files = .pocketBase(["cover"], collection: name, at: server)
        return books
    }

    /// PocketBase's batch API (`POST /api/batch`): up to 50 writes in one transaction, each
    /// answered in order. A server with batches turned off (the default) answers `403`, and the
    /// mirror sends that run's writes one by one; a batch rolled back for one write is sent again
    /// one by one, which finds the write at fault.
    static func batch(server: URL) -> WriteBatch {
        .jsonRequests(maximumCount: 50) { body in
            PocketBaseRequest(server: server, path: "/api/batch", method: .post, body: body)
        }
    }

    /// The conflict rule: a removal wins on either side; otherwise the server's values of the fields
    /// both devices changed (the change that reached it first) win, and a lost rating is recorded
    /// for the report. The policy only meets real conflicts: a rating here and a title changed
    /// elsewhere are merged before it is asked.
    static func policy(recording conflicts: Conflicts) -> ConflictPolicy<LibraryBook> {
        ConflictPolicy { conflict in
            guard let local = conflict.local else { return .keepLocal }
            guard let remote = conflict.remote else {
                if local.rating != conflict.base?.rating { conflicts.recordRemoval(local: local) }
                return .keepRemote
            }
            if conflict.fields.contains("rating") { conflicts.record(local: local, remote: remote) }
            return .keepRemote
        }
    }

    /// The ratings this device lost to another device's, as the conflict rule met them.
    final class Conflicts: Sendable {
        private let lost = Protected<[String]>([])

        /// Both devices rated the book; the other's rating reached the server first.
        func record(local: LibraryBook, remote: LibraryBook) {
            let line =
                "Your rating of \(local.line) (\(Self.stars(local.rating))) lost to another device's "
                + "(\(Self.stars(remote.rating))), which reached the server first: \(Self.stars(remote.rating)) is kept."
            lost.withLock { $0.append(line) }
        }

        /// The book was removed on another device while this one rated it.
        func recordRemoval(local: LibraryBook) {
            let line =
                "\(local.line) was removed from the library on another device; your rating "
                + "(\(Self.stars(local.rating))) went with it."
            lost.withLock { $0.append(line) }
        }

        /// One line per lost rating.
        var lines: [String] { lost.withLock { $0 } }

        private static func stars(_ rating: Int?) -> String { rating.map { "\($0) of 5" } ?? "no rating" }
    }

    /// The id a book's record has on the server: its own (``LibraryBook/recordID``), or, for a
    /// book this device added and the server has not answered yet, the id its create proposes.
    static func address(of book: LibraryBook) -> String {
        book.recordID ?? proposedID(volume: book.id)
    }

    /// The id this device proposes for the record of a volume it adds: 15 characters of
    /// `[a-z0-9]`, the same on every device.
    static func proposedID(volume: String) -> String {
        // Two 64-bit FNV-1a hashes of the id (with different offsets), in base 36.
        func fnv(_ seed: UInt64) -> UInt64 {
            var hash = seed
            for byte in volume.utf8 {
                hash ^= UInt64(byte)
                hash = hash &* 0x100_0000_01b3
            }
            return hash
        }
        let alphabet = Array("0123456789abcdefghijklmnopqrstuvwxyz")
        var text = ""
        for var part in [fnv(0xcbf2_9ce4_8422_2325), fnv(0x8422_2325_cbf2_9ce4)] {
            for _ in 0..<8 {
                text.append(alphabet[Int(part % 36)])
                part /= 36
            }
        }
        return String(text.prefix(15))
    }

    /// The record's fields for a book: what a create (with `id`) and an update send.
    struct Fields: Encodable {
        var id: String?
        var volumeId: String
        var title: String
        var authors: [String]
        var isbn13: String
        var rating: Int
        var addedAt: String
        var deleted = false
        var cover: String

        init(_ book: LibraryBook) {
            cover = book.cover?.name ?? ""
            volumeId = book.id
            title = book.title
            authors = book.authorNames
            isbn13 = book.isbn ?? ""
            rating = book.rating ?? 0
            addedAt = book.addedAt.formatted(.iso8601)
        }
    }

    /// A filter's string literal.
    static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }

    /// A record of the collection.
    struct Record: Decodable {
        var id: String
        var volumeId: String
        var title: String?
        var authors: Authors?
        var isbn13: String?
        var rating: Double?
        var addedAt: String?
        var deleted: Bool?
        var cover: SyncedFile?
        var updated: String

        /// The library's book.
        var book: LibraryBook {
            let rating = Int((rating ?? 0).rounded())
            return LibraryBook(
                id: volumeId, title: title ?? "", authors: authors?.names.joined(separator: ", "),
                isbn: (isbn13?.isEmpty ?? true) ? nil : isbn13,
                addedAt: Self.date(addedAt) ?? Date(timeIntervalSince1970: 0),
                rating: (1...5).contains(rating) ? rating : nil, serverUpdated: updated, recordID: id,
                cover: cover?.isEmpty == false ? cover : nil)
        }

        /// PocketBase's `2026-11-24 10:00:00.000Z`.
        static func date(_ text: String?) -> Date? {
            guard let text, !text.isEmpty else { return nil }
            let iso = text.replacingOccurrences(of: " ", with: "T")
            return (try? Date(iso, strategy: .iso8601.year().month().day().time(includingFractionalSeconds: true)))
                ?? (try? Date(iso, strategy: .iso8601))
        }
    }

    /// The `authors` JSON field: a list of names, or anything else another client wrote.
    enum Authors: Decodable {
        case names([String])
        case other

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let names = try? container.decode([String].self) {
                self = .names(names)
            } else if let name = try? container.decode(String.self) {
                self = .names([name])
            } else {
                self = .other
            }
        }

        var names: [String] {
            if case .names(let names) = self { return names }
            return []
        }
    }

    struct RecordPage: Decodable {
        var items: [Record]
    }

    struct IdentityPage: Decodable {
        struct Item: Decodable {
            var volumeId: String
        }
        var items: [Item]
    }
}

/// A request to a PocketBase server.
struct PocketBaseRequest: Endpoint {
    var server: URL
    var path: String
    var method: HTTPMethod = .get
    var query: [URLQueryItem] = []
    var body: RequestBody?
    var timeout: Duration?

    init(
        server: URL, path: String, method: HTTPMethod = .get, query: [URLQueryItem] = [], body: RequestBody? = nil,
        timeout: Duration? = nil
    ) {
        self.server = server
        self.path = path
        self.method = method
        self.query = query
        self.body = body
        self.timeout = timeout
    }

    var baseURL: URL { server }
    var queryItems: [URLQueryItem] { query }
    var cachePolicy: CachePolicy { .bypass }
}
