import FetchKit
import FetchKitTesting
import Foundation
import Locking
import Persistence
import Sync
import SyncHarness
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A server that answers a write with something that is not an answer, and a record the schema
/// cannot store: each a typed error naming the collection and the record, the status says so,
/// nothing applied half, nothing local lost.
@Suite("Bad input: answers that are not answers, records the store refuses")
struct BadInputTests {
    static let lies: [(name: String, answer: StubResponse)] = [
        ("a page of HTML", .text("<html><body>502 Bad Gateway</body></html>")),
        ("a record cut short", .json(#"{"id":"a","title":"one","bo"#)),
        (
            "another record",
            .json(#"{"id":"zz","title":"someone else's","body":"","updated":"2026-11-25 10:00:00.000Z"}"#)
        ),
    ]

    @Test(
        "A write the server applied but answered with nonsense stays queued with a typed error; the next sync settles it once",
        arguments: [0, 1, 2], [true, false])
    func writeAnsweredWithNonsense(lie: Int, serverHonoursKeys: Bool) async throws {
        let fixture = try SyncFixture()
        fixture.backend.honourKeys(serverHonoursKeys)
        let mirror = try fixture.mirror()
        fixture.backend.failWrites(.answerAfterApply(Self.lies[lie].answer))
        try fixture.save(Note(id: "a", title: "one"), through: mirror)

        let error = await #expect(throws: SyncError.self, "\(Self.lies[lie].name)") { try await mirror.sync() }
        #expect(error?.code == .badWriteResponse)
        #expect(error?.collection == "notes")
        #expect(error?.record == "a")
        #expect(await mirror.status.error?.code == .badWriteResponse)
        // The server applied it; the local row and its write are kept.
        #expect(fixture.backend.notes["a"]?.title == "one")
        #expect(try fixture.local()["a"]?.title == "one")
        #expect(try fixture.outbox().map(\.recordID) == ["a"])

        try await mirror.sync()
        #expect(try fixture.outbox().isEmpty)
        #expect(await mirror.status.error == nil)
        #expect(fixture.backend.applications["create:one"] == 1)
        #expect(try fixture.localContents() == fixture.serverContents())
    }

    @Test("Without the check, an answer that is not JSON acknowledges the write as if it were one (the check can fail)")
    func nonsenseIsCaughtOnlyByTheCheck() async throws {
        // A collection whose reading of answers swallows every error, as the default did before:
        // the write is settled silently, the run reports nothing.
        let fixture = try SyncFixture()
        var collection = NotesAPI.collection(at: fixture.backend.baseURL)
        collection.writes.written = .custom { data, _ in try? JSONDecoder().decode(Note.self, from: data) }
        let mirror = try SyncedCollection(collection, store: fixture.store, client: NotesAPI.client())
        fixture.backend.failWrites(.answerAfterApply(Self.lies[0].answer))
        try fixture.save(Note(id: "a", title: "one"), through: mirror)
        try await mirror.sync()
        #expect(try fixture.outbox().isEmpty)
        #expect(await mirror.status.error == nil)
    }

    @Test("A page that does not decode names the page and the property; the status says so")
    func undecodablePageNamesTheProperty() async throws {
        let fixture = try SyncFixture()
        fixture.backend.server.route(
            "GET", "/notes", respond: .json(#"{"items":[{"id":"a","updated":"x"},{"id":2}],"hasMore":false}"#))
        let mirror = try fixture.mirror()
        let error = await #expect(throws: SyncError.self) { try await mirror.sync() }
        #expect(error?.code == .undecodablePage)
        #expect(error?.collection == "notes")
        #expect(error?.page == "first")
        #expect(error?.property == "items[1].id")
        #expect(error?.message.contains("items[1].id") == true)
        #expect(await mirror.status.error?.code == .undecodablePage)
        #expect(try fixture.local().isEmpty)
    }

    @Test(
        "A record the schema cannot store fails its page naming the record and the property; nothing of the page is applied"
    )
    func recordTheStoreRefuses() async throws {
        let catalogue = try Catalogue()
        let folder = try TemporaryDirectory(prefix: "BadInputTests")
        let store = try ObjectStore(at: folder.file("tags.sqlite"), entities: [Tag.self] + SyncSchema.entities)
        defer {
            store.close()
            folder.remove()
        }
        let mirror = try SyncedCollection(catalogue.collection, store: store, client: NotesAPI.client())
        // Two tags of one slug on the second page: the slug is a unique key here.
        catalogue.tags.withLock {
            $0 = [
                Tag(id: "t1", slug: "swift", updated: 1), Tag(id: "t2", slug: "sqlite", updated: 2),
                Tag(id: "t3", slug: "json", updated: 3), Tag(id: "t4", slug: "swift", updated: 4),
            ]
        }
        let error = await #expect(throws: SyncError.self) { try await mirror.sync() }
        #expect(error?.code == .storeFailed)
        #expect(error?.collection == "tags")
        #expect(error?.record == "t4")
        #expect(error?.property == "slug")
        #expect(error?.page == "after 2 / t2")
        #expect(error?.persistenceError?.code == .uniqueKeyViolation)
        #expect(await mirror.status.error?.record == "t4")
        // The first page is applied with its cursor; nothing of the second.
        let stored = try store.context.readAndWait { tx in
            try tx.fetch(Query<Tag>(sortedBy: [Tag.slugField.ascending()]))
        }
        #expect(stored.map(\.id) == ["t2", "t1"])

        // The server mends its data: the next sync resumes at the second page.
        catalogue.tags.withLock { $0[3].slug = "swiftui" }
        try await mirror.sync()
        let mended = try store.context.readAndWait { tx in try tx.fetch(Query<Tag>()) }
        #expect(Set(mended.map(\.id)) == ["t1", "t2", "t3", "t4"])
        #expect(await mirror.status.error == nil)
    }
}

/// A tag whose slug is unique in the store (not on the server).
private struct Tag: StoredEntity, Hashable, Codable {
    var id: String
    var slug: String
    var updated: Int64

    static let slugField = Field<Tag, String>("slug")
    static var uniqueKeys: [UniqueKey<Tag>] { [UniqueKey(slugField)] }
}

/// `GET /tags?after=V&afterID=I`: tags in version order, two a page.
private final class Catalogue: Sendable {
    let server = StubServer()
    let tags = Locked<[Tag]>([])

    init() throws {
        server.route("GET", "/tags") { [tags] request in
            let query = Dictionary(request.queryItems.map { ($0.name, $0.value ?? "") }) { first, _ in first }
            let after = Int64(query["after"] ?? "") ?? Int64.min
            let afterID = query["afterID"] ?? ""
            let all = tags.withLock { $0 }.filter { $0.updated > after || ($0.updated == after && $0.id > afterID) }
            let page = Array(all.prefix(2))
            let data = (try? JSONEncoder().encode(page)) ?? Data("[]".utf8)
            return StubResponse.json(
                #"{"items":\#(String(decoding: data, as: UTF8.self)),"hasMore":\#(all.count > 2)}"#)
        }
        try server.start()
    }

    deinit { server.stop() }

    var collection: RemoteCollection<Tag> {
        let base = server.baseURL
        return RemoteCollection<Tag>(
            "tags",
            changes: .keyset(
                overlap: .none, version: { RecordVersion($0.updated) },
                request: { cursor in
                    var items: [URLQueryItem] = []
                    if case .keyset(let version, let id) = cursor {
                        items = [
                            URLQueryItem(name: "after", value: version.description),
                            URLQueryItem(name: "afterID", value: id),
                        ]
                    }
                    return TagsRequest(baseURL: base, queryItems: items)
                },
                page: .custom { data, _ in
                    struct Page: Decodable {
                        var items: [Tag]
                        var hasMore: Bool
                    }
                    let page = try JSONDecoder().decode(Page.self, from: data)
                    return ChangePage(records: page.items, hasMore: page.hasMore)
                }))
    }
}

private struct TagsRequest: Endpoint {
    var baseURL: URL
    var path = "/tags"
    var queryItems: [URLQueryItem]
}
