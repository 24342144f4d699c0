import FetchKit
import FetchKitTesting
import Foundation
import Locking
import Persistence
import Sync
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A pin on a board that has no change feed: the API lists the whole board, newest first, page
/// by page, each pin with its owner inside it.
private struct Pin: StoredEntity, Hashable {
    var id: String
    var title: String
    var ownerID: String
    /// The user's mark: only this device keeps it.
    var marked = false

    static let ownerField = Field<Pin, String>("ownerID")
    static let marked = Field<Pin, Bool>("marked")
    static let owner = ToOne<Pin, Owner>(ownerField, onDelete: .cascade)
    static let relations: [any Relation<Pin>] = [owner]
}

private struct Owner: StoredEntity, Hashable {
    var id: String
    var name: String
}

/// The board's server: `GET /pins?page=N&size=S`.
private final class Board: Sendable {
    let server = StubServer()
    /// Pins, newest first: id, title, owner id, owner name.
    let pins = Locked<[(id: String, title: String, owner: String, name: String)]>([])
    /// A page that answers `503` once instead of its pins.
    let failingPage = Locked<Int?>(nil)
    let requests = Locked(0)
    /// How long each page takes to answer.
    let delay = Locked(Duration.zero)
    /// Whether each page after the first starts with the last pin of the page before (a listing
    /// that moved on between two requests).
    let shifted = Locked(false)

    init() throws {
        server.route("GET", "/pins") { [self] request in
            requests.withLock { $0 += 1 }
            let query = Dictionary(request.queryItems.map { ($0.name, $0.value ?? "") }) { first, _ in first }
            let page = Int(query["page"] ?? "") ?? 1
            let fails = failingPage.withLock { failing in
                defer { if failing == page { failing = nil } }
                return failing == page
            }
            if fails { return StubResponse.json(#"{"message":"down"}"#, status: 503) }
            let size = Int(query["size"] ?? "") ?? 3
            let all = pins.withLock { $0 }
            let skip = max(0, (page - 1) * size - (shifted.withLock { $0 } && page > 1 ? 1 : 0))
            let slice = all.dropFirst(skip).prefix(size)
            let items = slice.map {
                #"{"id":"\#($0.id)","title":"\#($0.title)","owner":{"id":"\#($0.owner)","name":"\#($0.name)"}}"#
            }
            return StubResponse.json(#"{"pins":[\#(items.joined(separator: ","))],"more":\#(all.count > page * size)}"#)
                .delayed(by: delay.withLock { $0 })
        }
        try server.start()
    }

    func set(_ ids: [String], owner: String = "o1", name: String = "Ada") {
        pins.withLock { $0 = ids.map { (id: $0, title: "pin \($0)", owner: owner, name: name) } }
    }

    deinit { server.stop() }
}

private struct BoardPage: Decodable {
    struct Item: Decodable {
        struct Person: Decodable {
            var id: String
            var name: String
        }
        var id: String
        var title: String
        var owner: Person
    }
    var pins: [Item]
    var more: Bool
}

private struct BoardRequest: Endpoint {
    var baseURL: URL
    var path = "/pins"
    var queryItems: [URLQueryItem]
}

@Suite("Snapshot collections: a walk page by page, pruning, marks, related rows")
final class SnapshotTests {
    private let board: Board
    private let folder: URL
    private let store: ObjectStore

    init() throws {
        board = try Board()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("SnapshotTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        store = try ObjectStore(
            at: folder.appendingPathComponent("pins.sqlite"), entities: [Owner.self, Pin.self] + SyncSchema.entities)
    }

    deinit {
        store.close()
        try? FileManager.default.removeItem(at: folder)
    }

    private func mirror(related: Bool = true, retaining: Filter<Pin>? = Pin.marked == true) throws -> SyncedCollection<Pin> {
        let base = board.server.baseURL
        let changes: @Sendable (SyncCursor?) -> any Endpoint = { cursor in
            var items = [URLQueryItem(name: "size", value: "3")]
            if case .page(let number) = cursor { items.append(URLQueryItem(name: "page", value: String(number))) }
            return BoardRequest(baseURL: base, queryItems: items)
        }
        let page: @Sendable (Data, HTTPURLResponse) throws -> ChangePage<Pin> = { data, _ in
            let decoded = try JSONDecoder().decode(BoardPage.self, from: data)
            let owners = decoded.pins.map { Owner(id: $0.owner.id, name: $0.owner.name) }
            var store: (@Sendable (ObjectTransaction) throws -> Void)?
            if related {
                store = { tx in
                    for owner in owners { try tx.upsert(owner) }
                }
            }
            let pins = decoded.pins.map { Pin(id: $0.id, title: $0.title, ownerID: $0.owner.id) }
            return ChangePage(records: pins, hasMore: decoded.more, storingRelated: store)
        }
        var collection = RemoteCollection<Pin>("pins", changes: .snapshot(request: changes, page: .custom(page)))
        collection.keeping = [.keep(Pin.marked)]
        collection.retaining = retaining
        // No retries of the client's own: a failed page ends the run.
        let client = FetchClient { $0.retryPolicy = .none }
        return try SyncedCollection(collection, store: store, client: client)
    }

    private func stored() throws -> [String: Pin] {
        let pins = try store.context.readAndWait { tx in try tx.fetch(Query<Pin>()) }
        return Dictionary(uniqueKeysWithValues: pins.map { ($0.id, $0) })
    }

    private func mark(_ id: String) throws {
        try store.context.persistAndWait { tx in
            guard var pin = try tx.fetch(Pin.self, id: id) else { return }
            pin.marked = true
            try tx.update(pin)
        }
    }

    @Test("A walk reads every page; the next one prunes what the board no longer lists, except marked pins")
    func walkAndPrune() async throws {
        board.set(["p7", "p6", "p5", "p4", "p3", "p2", "p1"])
        let mirror = try mirror()
        let first = try await mirror.sync()
        #expect(first.pagesApplied == 3)
        #expect(Set(try stored().keys) == ["p1", "p2", "p3", "p4", "p5", "p6", "p7"])
        #expect(try store.context.readAndWait { tx in try tx.fetch(Owner.self, id: "o1") }?.name == "Ada")

        try mark("p2")
        board.set(["p9", "p8", "p7", "p6", "p5"], name: "Ada L.")
        let second = try await mirror.sync()
        #expect(second.recordsDeleted == 3)
        let pins = try stored()
        #expect(Set(pins.keys) == ["p2", "p5", "p6", "p7", "p8", "p9"])
        #expect(pins["p2"]?.marked == true)
        #expect(try store.context.readAndWait { tx in try tx.fetch(Owner.self, id: "o1") }?.name == "Ada L.")

        // The mark survives a pull of its own pin too, and an unmarked pin goes at the next walk.
        board.set(["p9", "p2"])
        try await mirror.sync()
        #expect(try stored()["p2"]?.marked == true)
        #expect(Set(try stored().keys) == ["p2", "p9"])
    }

    @Test("Without a retaining filter a marked pin is pruned like any other")
    func withoutRetaining() async throws {
        board.set(["p2", "p1"])
        let mirror = try mirror(retaining: nil)
        try await mirror.sync()
        try mark("p1")
        board.set(["p2"])
        try await mirror.sync()
        #expect(Set(try stored().keys) == ["p2"])
    }

    @Test("A walk that fails on a later page prunes nothing; the next run walks again and prunes")
    func failedWalkPrunesNothing() async throws {
        board.set(["p6", "p5", "p4", "p3", "p2", "p1"])
        let mirror = try mirror()
        try await mirror.sync()
        board.set(["p8", "p7", "p6", "p5"])
        board.failingPage.withLock { $0 = 2 }
        // The second page answers 503: the first is applied, nothing is pruned.
        await #expect(throws: SyncError.self) { try await mirror.sync() }
        #expect(Set(try stored().keys) == ["p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8"])
        try await mirror.sync()
        #expect(Set(try stored().keys) == ["p5", "p6", "p7", "p8"])
    }

    @Test("Rows the records refer to land in the page's transaction; without them the page is refused whole")
    func relatedRows() async throws {
        board.set(["p2", "p1"], owner: "o9", name: "Grace")
        // Without the owners the pins break their reference: the store refuses the page, and
        // nothing of it is kept.
        let error = await #expect(throws: SyncError.self) { try await mirror(related: false).sync() }
        #expect(error?.code == .storeFailed)
        #expect(try stored().isEmpty)
        try await mirror().sync()
        #expect(Set(try stored().keys) == ["p1", "p2"])
        #expect(try store.context.readAndWait { tx in try tx.fetch(Owner.self, id: "o9") }?.name == "Grace")
    }

    @Test("A collection without write requests refuses a write through the mirror, naming what is missing")
    func readOnly() async throws {
        board.set(["p1"])
        let mirror = try mirror()
        try await mirror.sync()
        for write in ["create", "update", "delete"] {
            let error = #expect(throws: SyncError.self) {
                try store.context.persistAndWait { tx in
                    switch write {
                    case "create": try mirror.save(Pin(id: "new", title: "t", ownerID: "o1"), in: tx)
                    case "update": try mirror.save(Pin(id: "p1", title: "changed", ownerID: "o1"), in: tx)
                    default: try mirror.delete("p1", in: tx)
                    }
                }
            }
            #expect(error?.code == .misuse)
            #expect(error?.message.contains("RecordWrites.\(write) is nil") == true, "\(String(describing: error))")
        }
        #expect(try stored()["p1"]?.title == "pin p1")
        #expect(try stored()["new"] == nil)
        #expect(try store.context.readAndWait { tx in try tx.count(Query<PendingWrite>()) } == 0)
    }

    @Test("Cancelling the caller of sync() stops the run at once; the next run walks from where it was")
    func cancellation() async throws {
        board.set(["p6", "p5", "p4", "p3", "p2", "p1"])
        let mirror = try mirror()
        board.delay.withLock { $0 = .seconds(86_400) }
        let run = Task { try await mirror.sync() }
        while board.requests.withLock({ $0 }) == 0 { try await Task.sleep(for: .milliseconds(10)) }
        run.cancel()
        let error = await #expect(throws: SyncError.self) { try await run.value }
        #expect(error?.fetchError?.code == .cancelled, "\(String(describing: error))")
        // Not the server's page a day later: the request stopped when the caller was cancelled.
        #expect(try stored().isEmpty)
        board.delay.withLock { $0 = .zero }
        try await mirror.sync()
        #expect(Set(try stored().keys) == ["p1", "p2", "p3", "p4", "p5", "p6"])
    }

    @Test("A pin listed on two pages of one walk (the listing moved on) is stored once; the walk goes on")
    func seenTwiceInOneWalk() async throws {
        board.set(["p7", "p6", "p5", "p4", "p3", "p2", "p1"])
        board.shifted.withLock { $0 = true }
        let mirror = try mirror()
        try await mirror.sync()
        #expect(Set(try stored().keys) == ["p1", "p2", "p3", "p4", "p5", "p6", "p7"])
        board.set(["p8", "p7", "p6", "p5"])
        try await mirror.sync()
        #expect(Set(try stored().keys) == ["p5", "p6", "p7", "p8"])
    }
}
