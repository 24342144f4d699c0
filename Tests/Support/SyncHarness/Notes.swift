public import FetchKit
public import Foundation
public import Persistence
public import Sync

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The fault harness's entity: a note with a server-stamped `updated`.
public struct Note: StoredEntity, Hashable {
    /// The client-chosen identity.
    public var id: String
    /// The title (unique per write in the property tests).
    public var title: String
    /// The text.
    public var body: String
    /// The server's timestamp, `""` until the server stamped it.
    public var updated: String

    /// A note.
    public init(id: String, title: String, body: String = "", updated: String = "") {
        self.id = id
        self.title = title
        self.body = body
        self.updated = updated
    }

    /// The title column.
    public static let title = Field<Note, String>("title")
}

/// One request to the notes backend.
struct NotesRequest: Endpoint {
    var baseURL: URL
    var path: String
    var method: HTTPMethod = .get
    var queryItems: [URLQueryItem] = []
    var body: RequestBody?
}

/// The fields of a note the server holds: what a create and an update send.
struct NoteFields: Encodable {
    var title: String
    var body: String

    init(_ note: Note) {
        title = note.title
        body = note.body
    }
}

/// A listed item: a note or its tombstone.
struct ListedNote: Decodable {
    var id: String
    var title: String?
    var body: String?
    var updated: String
    var deleted: Bool?
}

struct NotesPage: Decodable {
    var items: [ListedNote]
    var hasMore: Bool
}

struct IdentityPage: Decodable {
    var ids: [String]
    var hasMore: Bool
}

/// The notes collection of a ``NotesBackend``, described for a ``SyncedCollection``.
public enum NotesAPI {
    /// The description.
    ///
    /// - Parameters:
    ///   - base: the backend's URL.
    ///   - overlap: the keyset overlap.
    ///   - pageSize: records per page.
    ///   - conflictCheck: how updates find conflicts.
    ///   - reconcileEvery: the identity reconciliation interval, or `nil` for none.
    ///   - batchSize: the most writes of one `POST /batch`, or `nil` to send each write alone.
    /// - Returns: the collection.
    public static func collection(
        at base: URL, overlap: KeysetOverlap = .time(.seconds(5)), pageSize: Int = 50,
        conflictCheck: ConflictCheck<Note> = .readBeforeWrite, reconcileEvery: Duration? = nil, batchSize: Int? = nil
    ) -> RemoteCollection<Note> {
        var notes = RemoteCollection<Note>(
            "notes",
            changes: .keyset(
                overlap: overlap,
                version: { note in RecordVersion(note.updated) },
                request: { cursor in
                    var items = [URLQueryItem(name: "limit", value: String(pageSize))]
                    if case .keyset(let version, let id) = cursor {
                        items += [
                            URLQueryItem(name: "after", value: version.description),
                            URLQueryItem(name: "afterID", value: id),
                        ]
                    }
                    return NotesRequest(baseURL: base, path: "/notes", queryItems: items)
                },
                page: Extraction.decode(NotesPage.self).map { page in
                    var records: [Note] = []
                    var deleted: [String] = []
                    for item in page.items {
                        if item.deleted == true {
                            deleted.append(item.id)
                        } else {
                            records.append(
                                Note(id: item.id, title: item.title ?? "", body: item.body ?? "", updated: item.updated)
                            )
                        }
                    }
                    let cursor = page.items.last.map { SyncCursor.keyset(version: .text($0.updated), id: $0.id) }
                    return ChangePage(records: records, deleted: deleted, hasMore: page.hasMore, cursor: cursor)
                }),
            writes: RecordWrites(
                create: { note in
                    NotesRequest(
                        baseURL: base, path: "/notes", method: .post,
                        body: .json(["id": note.id, "title": note.title, "body": note.body]))
                },
                // A partial update: the fields changed since the base.
                update: { note, known in
                    NotesRequest(
                        baseURL: base, path: "/notes/\(note.id)", method: .patch,
                        body: .json(ChangedFields(NoteFields(note), since: known.map(NoteFields.init))))
                },
                delete: { note in NotesRequest(baseURL: base, path: "/notes/\(note.id)", method: .delete) },
                read: { note in NotesRequest(baseURL: base, path: "/notes/\(note.id)") },
                conflictCheck: conflictCheck))
        notes.identities = reconcileEvery.map { interval in
            IdentityListing(
                every: interval,
                request: { after in
                    NotesRequest(
                        baseURL: base, path: "/ids",
                        queryItems: [
                            URLQueryItem(name: "after", value: after ?? ""),
                            URLQueryItem(name: "limit", value: String(pageSize)),
                        ])
                },
                page: .custom { data, _ in
                    let page = try JSONDecoder().decode(IdentityPage.self, from: data)
                    return (page.ids, page.hasMore)
                })
        }
        notes.batch = batchSize.map { size in
            .jsonRequests(maximumCount: size) { body in
                NotesRequest(baseURL: base, path: "/batch", method: .post, body: body)
            }
        }
        return notes
    }

    /// A client for the harness: quick backoff, no retries of its own (the outbox retries).
    public static func client() -> FetchClient {
        FetchClient(
            configuration: {
                var configuration = FetchClient.Configuration()
                configuration.retryPolicy = RetryPolicy(
                    maximumRetries: 0, baseDelay: .milliseconds(20), maximumDelay: .milliseconds(200))
                // A connection the stub server drops after a keep-alive reuse is noticed only when
                // the timeout runs out; a timeout is one more fault the outbox retries, so a short
                // one changes no outcome, only the harness's running time.
                configuration.timeout = .seconds(10)
                return configuration
            }())
    }
}
