import Foundation
import Locking
import Persistence
import TestSupport
import Testing

/// What an entity's `init(from:)` or `encode(to:)` kept, for the test to use later. Touched only
/// by one test at a time (the suite is serialized), on the test's thread and on the context's
/// queue while the test waits for it.
nonisolated(unsafe) private var keptDecoder: (any Decoder)?
nonisolated(unsafe) private var keptReader: KeyedDecodingContainer<Keeper.CodingKeys>?
nonisolated(unsafe) private var keptWriter: KeyedEncodingContainer<Keeper.CodingKeys>?
/// What a later row's `init(from:)` saw when it read through the kept container.
nonisolated(unsafe) private var sightings: [Result<String, any Error>] = []
/// What a later row's `init(from:)` got when it asked the kept decoder for a container.
nonisolated(unsafe) private var decoderSightings: [Result<Int, any Error>] = []

/// The second container the first `TwoKeyed` row's `encode(to:)` kept, and what later rows got
/// when they wrote through it.
nonisolated(unsafe) private var keptNameWriter: KeyedEncodingContainer<TwoKeyed.NameKey>?
nonisolated(unsafe) private var nameSightings: [Result<Void, any Error>] = []
/// The first container the first `TwoKeyed` row's `init(from:)` kept, and what later rows read
/// through it.
nonisolated(unsafe) private var keptIDReader: KeyedDecodingContainer<TwoKeyed.CodingKeys>?
nonisolated(unsafe) private var idSightings: [Result<Int, any Error>] = []

/// An entity whose coding goes through containers of two key types: the first row's
/// `encode(to:)` keeps the second, its `init(from:)` the first, and later rows use them.
struct TwoKeyed: StoredEntity, Equatable {
    var id: Int
    var name: String

    enum CodingKeys: String, CodingKey { case id, name }
    enum NameKey: String, CodingKey { case name }

    init(id: Int, name: String) {
        self.id = id
        self.name = name
    }

    init(from decoder: any Decoder) throws {
        let ids = try decoder.container(keyedBy: CodingKeys.self)
        id = try ids.decode(Int.self, forKey: .id)
        let names = try decoder.container(keyedBy: NameKey.self)
        name = try names.decode(String.self, forKey: .name)
        if id == 1 {
            keptIDReader = ids
        } else if let keptIDReader {
            idSightings.append(Result { try keptIDReader.decode(Int.self, forKey: .id) })
        }
    }

    func encode(to encoder: any Encoder) throws {
        var ids = encoder.container(keyedBy: CodingKeys.self)
        try ids.encode(id, forKey: .id)
        var names = encoder.container(keyedBy: NameKey.self)
        try names.encode(name, forKey: .name)
        if id == 1 {
            keptNameWriter = names
        } else if var keptNameWriter {
            nameSightings.append(Result { try keptNameWriter.encode("overwritten", forKey: .name) })
        }
    }
}

/// An entity whose coding keeps its decoder and containers, as a custom `init(from:)` may.
struct Keeper: StoredEntity, Equatable {
    var id: Int
    var name: String
    /// When set, `init(from:)` also reads `name` through the container an earlier row kept.
    var spies = false

    enum CodingKeys: String, CodingKey { case id, name, spies }

    init(id: Int, name: String, spies: Bool = false) {
        self.id = id
        self.name = name
        self.spies = spies
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int.self, forKey: .id)
        name = try container.decode(String.self, forKey: .name)
        spies = try container.decode(Bool.self, forKey: .spies)
        if spies, let keptReader {
            sightings.append(Result { try keptReader.decode(String.self, forKey: .name) })
            if let keptDecoder {
                decoderSightings.append(
                    Result { try keptDecoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .id) })
            }
        } else if !spies {
            keptDecoder = decoder
            keptReader = container
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(spies, forKey: .spies)
        if spies, var keptWriter {
            // Writes through the container of an earlier row: must not reach this row's statement.
            sightings.append(Result { try keptWriter.encode("overwritten", forKey: .name) }.map { "" })
        } else if !spies {
            keptWriter = container
        }
    }
}

/// A decoder or container an entity keeps past its `init(from:)` or `encode(to:)` can never read
/// freed memory or another row: using it fails with a misuse error, and the rows stay exact.
@Suite(.serialized) struct KeptCoderTests {
    init() {
        keptDecoder = nil
        keptReader = nil
        keptWriter = nil
        keptNameWriter = nil
        nameSightings = []
        keptIDReader = nil
        idSightings = []
        sightings = []
        decoderSightings = []
    }

    private func expectMisuse(_ error: (any Error)?, naming property: String?) {
        guard let error = error as? PersistenceError else {
            Issue.record("expected a PersistenceError, got \(String(describing: error))")
            return
        }
        #expect(error.code == .misuse)
        #expect(error.entity == "Keeper")
        #expect(error.property == property)
        #expect(
            error.message.contains("after init(from:) returned") || error.message.contains("after encode(to:) returned")
        )
    }

    @Test func aContainerKeptPastTheFetchFailsInsteadOfReadingFreedMemory() throws {
        let fixture = try StoreFixture()
        do {
            let store = try fixture.open([Keeper.self])
            try store.context.persistAndWait { tx in try tx.insert(Keeper(id: 1, name: "first")) }
            let fetched = try store.context.readAndWait { tx in try tx.fetch(Query<Keeper>()) }
            #expect(fetched == [Keeper(id: 1, name: "first")])
        }
        // The store, its statements and the fetch's decoder are gone; the entity kept its container.
        let reader = try #require(keptReader)
        for _ in 0..<3 {
            #expect(throws: PersistenceError.self) { try reader.decode(String.self, forKey: .name) }
            expectMisuse(Result { try reader.decodeIfPresent(Int.self, forKey: .id) }.error, naming: "id")
            expectMisuse(Result { try reader.decodeNil(forKey: .name) }.error, naming: "name")
        }
        let decoder = try #require(keptDecoder)
        expectMisuse(Result { try decoder.container(keyedBy: Keeper.CodingKeys.self) }.error, naming: nil)
    }

    @Test func aKeptContainerNamesItsEntityAfterItsDecoderServedAnother() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open([Keeper.self, Book.self])
        try store.context.persistAndWait { tx in
            try tx.insert(Keeper(id: 1, name: "first"))
            try tx.insert(Book(id: "b", title: "Dune"))
        }
        _ = try store.context.readAndWait { tx in try tx.fetch(Query<Keeper>()) }
        // The pooled decoders go on to read Books (the last one recycled is the next one used).
        for _ in 0..<20 { _ = try store.context.readAndWait { tx in try tx.fetch(Query<Book>()) } }
        let reader = try #require(keptReader)
        expectMisuse(Result { try reader.decodeIfPresent(Int.self, forKey: .id) }.error, naming: "id")
        let decoder = try #require(keptDecoder)
        expectMisuse(Result { try decoder.container(keyedBy: Keeper.CodingKeys.self) }.error, naming: nil)
    }

    @Test func aContainerKeptFromOneFetchNeverReadsALaterFetchsRow() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open([Keeper.self])
        try store.context.persistAndWait { tx in
            try tx.insert(Keeper(id: 1, name: "kept"))
            for id in 2...40 { try tx.insert(Keeper(id: id, name: "row \(id)", spies: true)) }
        }
        sightings = []  // the inserts' own writes through the kept encoding container
        // By identity (the decoder the codec keeps for every fetch by id) and by query.
        _ = try store.context.readAndWait { tx in try tx.fetch(Keeper.self, id: 1) }
        let byID = try store.context.readAndWait { tx in try (2...40).map { try tx.fetch(Keeper.self, id: $0) } }
        #expect(byID.map { $0?.name } == (2...40).map { "row \($0)" })
        _ = try store.context.readAndWait { tx in try tx.fetch(Query<Keeper>(where: Keeper.id == 1)) }
        let rest = try store.context.readAndWait { tx in
            try tx.fetch(Query<Keeper>(where: Keeper.id > 1, sortedBy: [Keeper.id.ascending()]))
        }
        #expect(rest.map(\.name) == (2...40).map { "row \($0)" })
        // A container kept from a fetch by query, used by the rows of a fetch by identity.
        _ = try store.context.readAndWait { tx in try tx.fetch(Query<Keeper>(where: Keeper.id == 1)) }
        _ = try store.context.readAndWait { tx in try tx.fetch(Keeper.self, id: 2) }
        #expect(sightings.count == 39 + 39 + 1)
        #expect(decoderSightings.count == 39 + 39 + 1)
        for sighting in sightings { expectMisuse(sighting.error, naming: "name") }
        for sighting in decoderSightings { expectMisuse(sighting.error, naming: nil) }
    }

    @Test func aContainerKeptFromOneRowNeverReadsTheNextRowsOfTheSameFetch() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open([Keeper.self])
        try store.context.persistAndWait { tx in
            try tx.insert(Keeper(id: 1, name: "kept"))
            for id in 2...40 { try tx.insert(Keeper(id: id, name: "row \(id)", spies: true)) }
        }
        sightings = []
        // Row 1 keeps its container and its decoder; rows 2 to 40 of the same fetch read through them.
        let all = try store.context.readAndWait { tx in try tx.fetch(Query<Keeper>(sortedBy: [Keeper.id.ascending()])) }
        #expect(all.map(\.name) == ["kept"] + (2...40).map { "row \($0)" })
        #expect(sightings.count == 39)
        #expect(decoderSightings.count == 39)
        for sighting in sightings { expectMisuse(sighting.error, naming: "name") }
        for sighting in decoderSightings { expectMisuse(sighting.error, naming: nil) }
    }

    @Test func aKeptContainerWhoseDecoderNowServesAnotherEntityNeverNamesThatEntity() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open([Keeper.self, Book.self])
        try store.context.persistAndWait { tx in try tx.insert(Keeper(id: 1, name: "kept")) }
        _ = try store.context.readAndWait { tx in try tx.fetch(Query<Keeper>()) }
        // The fetch's decoder went back to the pool; the next fetch, of books, may take it.
        _ = try store.context.readAndWait { tx in try tx.fetch(Query<Book>()) }
        let reader = try #require(keptReader)
        let error = try #require(Result { try reader.decode(String.self, forKey: .name) }.error as? PersistenceError)
        #expect(error.code == .misuse)
        #expect(error.entity == nil || error.entity == "Keeper")
        #expect(!error.message.contains("Book"))
        #expect(error.property == "name")
    }

    /// Decoders come from one pool for the whole process: once a fetch ends, its decoder serves
    /// fetches of other stores on other threads. A container kept from it and used meanwhile
    /// must fail with a misuse error without reading what the other thread changes (it read
    /// the decoder's history of entities as the other thread appended to it: a data race that
    /// could crash the process).
    @Test func aKeptContainerUsedWhileItsDecoderServesAnotherThreadOnlyFails() async throws {
        let fixture = try StoreFixture()
        let store = try fixture.open([Keeper.self, Book.self, Counter.self])
        try store.context.persistAndWait { tx in
            try tx.insert(Keeper(id: 1, name: "kept"))
            try tx.insert(Book(id: "b", title: "Dune"))
            try tx.insert(Counter(id: 1, value: 1))
        }
        _ = try store.context.readAndWait { tx in try tx.fetch(Query<Keeper>()) }
        nonisolated(unsafe) let reader = try #require(keptReader)
        let other = try StoreFixture()
        let busy = try other.open([Book.self, Counter.self])
        try busy.context.persistAndWait { tx in
            try tx.insert(Book(id: "b", title: "Dune"))
            try tx.insert(Counter(id: 1, value: 1))
        }
        let finished = Locked(false)
        let outcomes = await Blocking.run { () -> (misuses: Int, others: [String]) in
            let results = Locked((misuses: 0, others: [String]()))
            DispatchQueue.concurrentPerform(iterations: 2) { lane in
                if lane == 0 {
                    // The kept decoder is the pool's last one in: this lane's fetches take it,
                    // alternating entities, so it records a switch of entity at every fetch.
                    for _ in 0..<5_000 {
                        _ = try? busy.context.readAndWait { tx in try tx.fetch(Query<Book>()) }
                        _ = try? busy.context.readAndWait { tx in try tx.fetch(Query<Counter>()) }
                    }
                    finished.withLock { $0 = true }
                } else {
                    while !finished.withLock({ $0 }) {
                        let error = Result { try reader.decode(String.self, forKey: .name) }.error
                        results.withLock { results in
                            if (error as? PersistenceError)?.code == .misuse {
                                results.misuses += 1
                            } else {
                                results.others.append(String(describing: error))
                            }
                        }
                    }
                }
            }
            return results.withLock { $0 }
        }
        #expect(outcomes.misuses > 0)
        #expect(outcomes.others.isEmpty, "\(outcomes.others.prefix(3))")
        busy.close()
        store.close()
    }

    @Test func anEncodingContainerKeptFromOneWriteNeverWritesIntoALaterRow() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open([Keeper.self])
        try store.context.persistAndWait { tx in try tx.insert(Keeper(id: 1, name: "kept")) }
        try store.context.persistAndWait { tx in
            for id in 2...20 { try tx.upsert(Keeper(id: id, name: "row \(id)", spies: true)) }
        }
        #expect(sightings.count == 19)
        for sighting in sightings { expectMisuse(sighting.error, naming: "name") }
        sightings = []
        let all = try store.context.readAndWait { tx in try tx.fetch(Query<Keeper>(sortedBy: [Keeper.id.ascending()])) }
        #expect(all.map(\.name) == ["kept"] + (2...20).map { "row \($0)" })
        store.close()
        var writer = try #require(keptWriter)
        expectMisuse(Result { try writer.encode("late", forKey: .name) }.error, naming: "name")
        expectMisuse(Result { try writer.encodeNil(forKey: .id) }.error, naming: "id")
    }
}

extension KeptCoderTests {
    @Test func aSecondKindOfContainerKeptFromOneWriteNeverWritesIntoALaterRow() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open([TwoKeyed.self])
        try store.context.persistAndWait { tx in
            for id in 1...5 { try tx.insert(TwoKeyed(id: id, name: "row \(id)")) }
        }
        #expect(nameSightings.count == 4)
        for sighting in nameSightings {
            let error = sighting.error as? PersistenceError
            #expect(error?.code == .misuse)
            #expect(error?.entity == "TwoKeyed")
        }
        let all = try store.context.readAndWait { tx in
            try tx.fetch(Query<TwoKeyed>(sortedBy: [TwoKeyed.id.ascending()]))
        }
        #expect(all.map(\.name) == (1...5).map { "row \($0)" })
    }

    @Test func aFirstKindOfContainerKeptFromOneRowNeverReadsTheNextRows() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open([TwoKeyed.self])
        try store.context.persistAndWait { tx in
            for id in 1...5 { try tx.insert(TwoKeyed(id: id, name: "row \(id)")) }
        }
        keptIDReader = nil
        idSightings = []
        let all = try store.context.readAndWait { tx in
            try tx.fetch(Query<TwoKeyed>(sortedBy: [TwoKeyed.id.ascending()]))
        }
        #expect(all.map(\.id) == Array(1...5))
        #expect(idSightings.count == 4)
        for sighting in idSightings {
            let error = sighting.error as? PersistenceError
            #expect(error?.code == .misuse, "read \(String(describing: try? sighting.get()))")
            #expect(error?.entity == "TwoKeyed")
        }
    }
}

extension TwoKeyed {
    static let id = Field<TwoKeyed, Int>("id")
}

extension Keeper {
    static let id = Field<Keeper, Int>("id")
}

extension Result {
    fileprivate var error: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
