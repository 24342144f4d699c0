import CAtomicWord
import Foundation
import Locking

#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLite
#endif

/// Decodes entities straight from a statement's current row.
///
/// One instance is reused for every row of a statement run: column positions are
/// resolved once and the next column is predicted from property order.
///
/// Each use (one statement's rows: ``begin()`` to ``end()``) has its own generation, and the
/// ``RowDecodingScope`` and containers handed out during it carry it. Once the use ends, the
/// generation moves on, so a decoder or container an entity kept fails with
/// ``PersistenceError/Code-swift.struct/misuse`` instead of reading a later fetch's row or a
/// finalized statement. Within one fetch, rows share one container (one made per row would cost
/// an allocation and three metadata lookups per row, about a tenth of a fetch), until an entity
/// keeps it: after each row the box's reference count says whether a copy was kept, and if so
/// the generation moves on there too, so the kept copy fails from the next row on. Scopes and containers refer to their decoder unretained (a retained reference
/// would cost a retain and a release per column, copied by the standard library's container
/// box), which is sound because decoders are never freed: ``make(schema:statement:)`` takes one
/// from a pool and ``recycle()`` gives it back, and its generation only ever grows, so a stamp
/// from an earlier use never matches again.
///
/// The pool serves every store of the process, so a kept scope or container may be used on one
/// thread while its decoder serves another store's fetch on another. Before it fails it reads
/// only the generation and row (words read and written whole, as atomics; its stamp is never
/// current again, so any value it reads means "over") and, to name its entity, the history
/// behind its lock: nothing the other fetch changes in place.
final class RowDecoder {
    private(set) var schema: EntitySchema
    private(set) var names: [String]
    private(set) var count: Int
    /// The statement's handle, read directly on the hot path. The decoder does not keep the
    /// statement alive: its callers hold it while rows are decoded, and nothing reads the
    /// handle outside a live generation.
    private(set) var handle: OpaquePointer
    @exclusivity(unchecked) var next = 0
    /// The use of this decoder: odd while a statement's rows are read (between ``begin()`` and
    /// ``end()``), even otherwise. It never goes back, across every use of this decoder.
    private(set) var generation: UInt {
        @inline(__always) get { fk_atomic_word_load(words) }
        @inline(__always) set { fk_atomic_word_store(words, newValue) }
    }
    /// The row being decoded, counted over every use: a ``RowDecodingScope`` kept past its row
    /// fails.
    private(set) var row: UInt {
        @inline(__always) get { fk_atomic_word_load(words + 1) }
        @inline(__always) set { fk_atomic_word_store(words + 1, newValue) }
    }
    /// ``generation`` and ``row``, each read and written whole (a relaxed atomic access, a plain
    /// load or store on x86-64 and ARM64): a kept scope or container reads them from whatever
    /// thread it is used on. Never freed, as the decoder.
    private let words: UnsafeMutablePointer<UInt>

    /// The keyed container handed out for every row of the current use (it holds no per-row
    /// state), and the generation it carries. Handing it out again costs a retain, where a new
    /// one would cost an allocation and metadata look-ups.
    @exclusivity(unchecked) private var kept = KeptContainer()
    private var keptGeneration: UInt = 0
    /// Whether this row let a container go that it had handed out (an entity that asks for
    /// containers of two key types), or handed out one it could not keep, which the end of the
    /// row cannot tell kept or not: the generation then moves on.
    private var droppedHandedOut = false

    private lazy var json = StoreJSON.makeDecoder()

    /// The entities this decoder served, by generation (a recycled decoder may serve another
    /// entity): an error for a kept container names the one it was handed to. Behind a lock: a
    /// kept container fails on whatever thread uses it, while the decoder, back from the pool,
    /// serves another fetch on another thread and records a switch of entity.
    private let history: Locked<SchemaHistory>

    /// The column names in raw memory: reading one per column costs no retain of an array buffer.
    private var namePointer: UnsafeMutablePointer<String>
    /// The columns in raw memory, read in place: a value's reading copies no column description.
    private var columnPointer: UnsafeMutablePointer<ColumnSchema>
    /// The key that named each column on an earlier row, matched by its bits.
    @exclusivity(unchecked) private var keyBits: KeyBitsTable

    /// Decoders not in use, each retained once. Every decoder ever made is here or in use: none is
    /// freed. A decoder is used by one fetch at a time, on its context's queue, and moves between
    /// fetches only through this lock, so the class itself need not be `Sendable`.
    // `nonisolated(unsafe)`: the lock is the only way in; what it holds is not `Sendable`, and
    // moves between context queues only through it.
    nonisolated(unsafe) private static let pool = Locked<[Unmanaged<RowDecoder>]>([])
    /// How many idle decoders the pool holds before a fetch of an entity none of them served takes
    /// one that served another (and makes its columns again) instead of a new one.
    private static let poolSpread = 8

    private init(schema: EntitySchema, statement: Statement) {
        self.schema = schema
        history = Locked(SchemaHistory(entity: schema.entityName))
        names = schema.names
        count = names.count
        handle = statement.handle
        words = UnsafeMutablePointer<UInt>.allocate(capacity: 2)
        words.initialize(repeating: 0, count: 2)
        namePointer = UnsafeMutablePointer<String>.allocate(capacity: max(1, names.count))
        namePointer.initialize(from: names, count: names.count)
        columnPointer = Self.columns(of: schema)
        keyBits = KeyBitsTable(columns: names.count)
    }

    /// The schema's property columns, in raw memory.
    private static func columns(of schema: EntitySchema) -> UnsafeMutablePointer<ColumnSchema> {
        let columns = schema.columns
        let pointer = UnsafeMutablePointer<ColumnSchema>.allocate(capacity: max(1, columns.count))
        pointer.initialize(from: columns, count: columns.count)
        return pointer
    }

    /// A decoder for `statement`'s rows of `schema`, from the pool when one is free; give it back
    /// with ``recycle()`` when the statement's rows are read.
    static func make(schema: EntitySchema, statement: Statement) -> RowDecoder {
        // One that last served the same entity, which needs no new columns; else a new one while
        // the pool holds few (a fetch that alternates two entities keeps one decoder for each);
        // else the one given back longest ago (the most recent would serve each new entity in
        // turn, rebuilt every time).
        let taken = pool.withLock { pool -> Unmanaged<RowDecoder>? in
            if let index = pool.lastIndex(where: { $0._withUnsafeGuaranteedRef { $0.schema.shared === schema.shared } })
            {
                return pool.remove(at: index)
            }
            return pool.count < poolSpread ? nil : pool.removeFirst()
        }
        guard let decoder = taken?.takeRetainedValue() else {
            let decoder = RowDecoder(schema: schema, statement: statement)
            decoder.begin()
            return decoder
        }
        decoder.reset(schema: schema, statement: statement)
        decoder.begin()
        return decoder
    }

    /// Gives the decoder back to the pool, ending its use.
    func recycle() {
        if generation & 1 == 1 { end() }
        kept.drop()
        RowDecoder.pool.withLock { $0.append(Unmanaged.passRetained(self)) }
    }

    /// Starts a use: the rows read from now on, until ``end()``, share one generation.
    @inline(__always)
    func begin() {
        if generation & 1 == 0 { generation &+= 1 }
    }

    /// Ends a use: every scope and container handed out during it fails from now on.
    @inline(__always)
    func end() {
        if generation & 1 == 1 { generation &+= 1 }
    }

    /// The keyed container for the current use, made once per use and key type.
    @inline(__always)
    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedDecodingContainer<Key> {
        if keptGeneration == generation, kept.holds(ObjectIdentifier(Key.self)) {
            typealias Maker = ContainerOfBox<KeyedDecodingContainer<Key>>
            let (maker, box) = kept.parts
            return unsafeDowncast(maker, to: Maker.self).container(box)
        }
        let container = KeyedDecodingContainer(
            RowKeyedDecoder<Key>(unmanaged: Unmanaged.passUnretained(self), generation: generation))
        if !kept.isEmpty, keptGeneration == generation { droppedHandedOut = true }
        kept.drop()
        // Not kept, the row ends its generation, so a copy kept fails later.
        if kept.keep(container, key: ObjectIdentifier(Key.self)) {
            keptGeneration = generation
        } else {
            droppedHandedOut = true
        }
        return container
    }

    private func reset(schema: EntitySchema, statement: Statement) {
        handle = statement.handle
        if schema.entityName != self.schema.entityName {
            let since = generation &+ 1
            history.withLock { $0.switched(to: schema.entityName, since: since) }
        }
        if schema.shared !== self.schema.shared {
            columnPointer.deinitialize(count: self.schema.columns.count)
            columnPointer.deallocate()
            columnPointer = Self.columns(of: schema)
        }
        self.schema = schema
        guard schema.names != names else { return }
        namePointer.deinitialize(count: count)
        namePointer.deallocate()
        names = schema.names
        count = names.count
        namePointer = UnsafeMutablePointer<String>.allocate(capacity: max(1, names.count))
        namePointer.initialize(from: names, count: names.count)
        keyBits.reset(columns: count)
    }

    /// Decodes the statement's current row.
    @inline(__always)
    func decodeRow<E: Decodable>(_ type: E.Type) throws(PersistenceError) -> E {
        next = 0
        row &+= 1
        // An entity that kept the row's container (a copy shares its box) makes the next row
        // get a container of its own: the kept one is then of an earlier generation and fails.
        defer {
            if droppedHandedOut || kept.isShared {
                droppedHandedOut = false
                generation &+= 2
            }
        }
        do {
            return try E(
                from: RowDecodingScope(unmanaged: Unmanaged.passUnretained(self), generation: generation, row: row))
        } catch let error as PersistenceError {
            throw error
        } catch {
            throw PersistenceError(
                .decodingFailed,
                "A stored \(schema.entityName) row could not be decoded: \(Self.describe(error)). "
                    + "If the entity changed, add a Migration that converts the stored rows.",
                entity: schema.entityName, property: Self.property(of: error))
        }
    }

    static func property(of error: any Error) -> String? {
        guard let error = error as? DecodingError else { return nil }
        switch error {
        case .keyNotFound(let key, _): return key.stringValue
        case .valueNotFound(_, let context), .typeMismatch(_, let context), .dataCorrupted(let context):
            return context.codingPath.first?.stringValue
        @unknown default: return nil
        }
    }

    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        switch error {
        case .keyNotFound(let key, _): return "no column for '\(key.stringValue)'"
        case .valueNotFound(let type, let context):
            return
                "'\(context.codingPath.map(\.stringValue).joined(separator: "."))' is NULL but \(type) is not optional"
        case .typeMismatch(let type, let context):
            return "'\(context.codingPath.map(\.stringValue).joined(separator: "."))' is not a \(type)"
        case .dataCorrupted(let context):
            return "'\(context.codingPath.map(\.stringValue).joined(separator: "."))': \(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }

    /// The 0-based column index for `key`.
    @inline(__always)
    func column(_ key: some CodingKey) throws -> Int32 {
        guard let index = columnIfPresent(key) else {
            throw DecodingError.keyNotFound(
                key,
                .init(
                    codingPath: [key],
                    debugDescription: "\(schema.entityName) has no column '\(key.stringValue)'."))
        }
        return index
    }

    /// The 0-based column index for `key`, or `nil` when the row has no such column (a raw
    /// query, `fetch(_:sql:)`, may leave out an optional one).
    @inline(__always)
    func columnIfPresent<K: CodingKey>(_ key: K) -> Int32? {
        if let index = predictedColumn(key) { return index }
        let bits = KeyBitsTable.bits(of: key)
        let name = key.stringValue
        let index: Int
        if next < count, namePointer[next] == name {
            index = next
        } else {
            guard let found = schema.indexByName[name] else { return nil }
            index = found
        }
        if let bits { keyBits.record(K.self, bits, at: index) }
        next = index + 1
        return Int32(index)
    }

    /// `key`'s column when it is the one after the last read and the same key named it on an
    /// earlier row: a synthesized `init(from:)` reads its properties in their order, so after the
    /// first row every key but a skipped one's successor is found so. `nil` otherwise: then
    /// ``columnIfPresent(_:)`` finds it by name.
    @inline(__always)
    func predictedColumn<K: CodingKey>(_ key: K) -> Int32? {
        guard let bits = KeyBitsTable.bits(of: key), next < count, keyBits.matches(K.self, bits, at: next) else {
            return nil
        }
        next += 1
        // A column index is below SQLite's column limit (32,767 at most).
        return Int32(truncatingIfNeeded: next - 1)
    }

    /// The value of the column at `index`, whose SQLite type is `stored`, as `T`: a `Date`, `Data`
    /// or raw-value property of its own type through ``ValueCoding/ownType(_:at:stored:handle:_:)``,
    /// anything else (and every problem) through ``ValueCoding``'s general path.
    func decodeValue<T: Decodable>(_ type: T.Type, at index: Int32, stored: Int32) throws -> T {
        let column = columnPointer + Int(index)
        do {
            return try ValueCoding.ownType(T.self, at: index, stored: stored, handle: handle, column)
        } catch {
            return try ValueCoding.read(
                T.self, at: index, handle: handle, column: column.pointee, schema: schema, json: json)
        }
    }

    /// The error for a stored value whose SQLite type is not the column's.
    func mismatch(at index: Int32, stored: Int32) -> PersistenceError {
        ValueCoding.mismatch(schema, schema.columns[Int(index)], stored: stored)
    }

    /// The error for a value of `stored` type where another was expected: NULL is
    /// `valueNotFound` (reported as a missing value), anything else a type mismatch. Kept out of
    /// line so the checks on the hot path stay small.
    @inline(never)
    func unexpected(at index: Int32, stored: Int32, key: some CodingKey) -> any Error {
        if stored == SQLITE_NULL {
            return DecodingError.valueNotFound(
                Any.self, .init(codingPath: [key], debugDescription: "The column is NULL."))
        }
        return mismatch(at: index, stored: stored)
    }

    /// The error for a decoder or container used after its row's `init(from:)` returned.
    @inline(never)
    func outlived(_ key: (any CodingKey)?, _ stale: UInt) -> PersistenceError {
        // The decoder may have been recycled for another entity since: name the one it served then.
        let entity = history.withLock { $0.entity(at: stale) }
        return PersistenceError(
            .misuse,
            "\(entity ?? "An entity")'s init(from:) kept its Decoder or decoding container and used it "
                + (key.map { "to read '\($0.stringValue)' " } ?? "")
                + "after init(from:) returned; read every property inside init(from:).",
            entity: entity, property: key?.stringValue)
    }

    func unkeyedContainerError() -> PersistenceError {
        return PersistenceError(
            .decodingFailed,
            "\(schema.entityName) decodes itself from an array; an entity must decode a keyed container.")
    }

    func singleValueContainerError() -> PersistenceError {
        return PersistenceError(
            .decodingFailed,
            "\(schema.entityName) decodes itself from one value; an entity must decode a keyed container.")
    }
}
