import CAtomicWord
import Foundation
import Locking

#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLite
#endif

/// Binds an entity's properties straight to a prepared statement's parameters.
///
/// One instance is reused for every row written through a statement: column positions
/// are resolved once, and the next column is predicted from property order (a key is
/// compared with the expected name; a dictionary is the fallback).
///
/// Each row is encoded through a ``RowEncodingScope`` stamped with the row's generation; once the
/// row's `encode(to:)` returns, the generation moves on, so a kept encoder fails with
/// ``PersistenceError/Code-swift.struct/misuse``. The keyed container it hands out carries a
/// container stamp, current only while a row is encoded: one container serves row after row
/// while nothing but the encoder holds it (one made per row costs an allocation and two metadata
/// look-ups, about a tenth of an insert), and when an entity kept it, the stamp moves on, so the
/// kept one fails instead of binding its values into a later row's statement. Scopes and
/// containers refer to their encoder unretained (a retained reference would cost a retain and a
/// release per column), which is sound because encoders are never freed: ``make(schema:)`` takes
/// one from a pool and ``recycle()`` gives it back, and its generation and stamps only ever grow.
///
/// The pool serves every store of the process, so a kept scope or container may be used on one
/// thread while its encoder serves another store's codec on another. Before it fails it reads
/// only the generation or the container stamp (words read and written whole, as atomics; its
/// stamp is never current again) and, to name its entity, the history behind its lock: nothing
/// the other codec changes.
final class RowEncoder {
    private(set) var schema: EntitySchema
    private(set) var names: [String]
    private(set) var count: Int
    var statement: Statement?
    /// The statement's handle, bound directly on the hot path.
    var handle: OpaquePointer?
    @exclusivity(unchecked) var next = 0
    /// The row being encoded: odd while a row's `encode(to:)` runs, even between rows. It never
    /// goes back, across every use of this encoder.
    private(set) var generation: UInt {
        @inline(__always) get { fk_atomic_word_load(word) }
        @inline(__always) set { fk_atomic_word_store(word, newValue) }
    }
    /// ``generation``, read and written whole (a relaxed atomic access, a plain load or store on
    /// x86-64 and ARM64): a kept scope or container reads it from whatever thread it is used on.
    /// Never freed, as the encoder.
    private let word: UnsafeMutablePointer<UInt>
    /// The stamp a keyed container must carry to write: ``nextStamp`` (odd) while a row's
    /// `encode(to:)` runs, the even number after it between rows. Read and written whole, as
    /// ``generation``, from whatever thread a kept container is used on. Never freed.
    private(set) var containerStamp: UInt {
        @inline(__always) get { fk_atomic_word_load(stampWord) }
        @inline(__always) set { fk_atomic_word_store(stampWord, newValue) }
    }
    private let stampWord: UnsafeMutablePointer<UInt>
    /// The stamp of the keyed containers made for the coming rows. It moves on when a container
    /// was kept past its row, when a row asked for containers of two key types, and when the
    /// encoder changes hands, so a container nothing kept serves the next row too.
    private var nextStamp: UInt = 1
    /// The keyed container handed out last: handed out again while nothing but this encoder
    /// holds it.
    @exclusivity(unchecked) private var kept = KeptContainer()
    /// Whether this row handed out a container that is not the kept one (a second key type),
    /// which the end of the row cannot tell kept or not: the stamp then moves on.
    private var untracked = false
    /// Which columns this row bound (bit per column), when the entity has at most 64.
    @exclusivity(unchecked) var boundMask: UInt64 = 0
    private(set) var fullMask: UInt64?
    var failure: (any Error)?
    /// Each column's kind, the range of a narrow integer property, and the parameter of its
    /// folded text (0 for none).
    private(set) var kinds: [ValueKind]
    private(set) var integerRanges: [ClosedRange<Int64>?]
    private(set) var foldParameters: [Int32]
    private(set) var hasFolds: Bool
    private lazy var json = StoreJSON.makeEncoder()
    /// The key that named each column on an earlier row, matched by its bits.
    @exclusivity(unchecked) private var keyBits: KeyBitsTable

    /// The entities this encoder served, by generation (a recycled encoder may serve another
    /// entity): an error for a kept container names the one it was handed to. Behind a lock: a
    /// kept container fails on whatever thread uses it, while the encoder, back from the pool,
    /// serves another codec on another thread and records a switch of entity.
    private let history: Locked<SchemaHistory>

    /// Encoders not in use, each retained once. Every encoder ever made is here or in use: none is
    /// freed. An encoder belongs to one connection's codec, used on its context's queue, and moves
    /// between codecs only through this lock, so the class itself need not be `Sendable`.
    // `nonisolated(unsafe)`: the lock is the only way in; what it holds is not `Sendable`, and
    // moves between context queues only through it.
    nonisolated(unsafe) private static let pool = Locked<[Unmanaged<RowEncoder>]>([])

    private init(schema: EntitySchema) {
        word = UnsafeMutablePointer<UInt>.allocate(capacity: 1)
        word.initialize(to: 0)
        stampWord = UnsafeMutablePointer<UInt>.allocate(capacity: 1)
        stampWord.initialize(to: 0)
        self.schema = schema
        history = Locked(SchemaHistory(entity: schema.entityName))
        names = schema.names
        count = names.count
        kinds = schema.columns.map(\.kind)
        integerRanges = schema.columns.map(\.integerRange)
        foldParameters = schema.foldParameters
        hasFolds = schema.foldParameters.contains { $0 != 0 }
        fullMask = count <= 64 ? (count == 64 ? UInt64.max : (UInt64(1) << UInt64(count)) - 1) : nil
        keyBits = KeyBitsTable(columns: count)
    }

    /// An encoder for rows of `schema`, from the pool when one is free; give it back with
    /// ``recycle()`` when its codec goes away.
    static func make(schema: EntitySchema) -> RowEncoder {
        guard let encoder = pool.withLock({ $0.popLast() })?.takeRetainedValue() else {
            return RowEncoder(schema: schema)
        }
        if schema.entityName != encoder.schema.entityName {
            let since = encoder.generation &+ 1
            encoder.history.withLock { $0.switched(to: schema.entityName, since: since) }
        }
        encoder.schema = schema
        encoder.names = schema.names
        encoder.count = encoder.names.count
        encoder.kinds = schema.columns.map(\.kind)
        encoder.integerRanges = schema.columns.map(\.integerRange)
        encoder.foldParameters = schema.foldParameters
        encoder.hasFolds = schema.foldParameters.contains { $0 != 0 }
        let count = encoder.count
        encoder.fullMask = count <= 64 ? (count == 64 ? UInt64.max : (UInt64(1) << UInt64(count)) - 1) : nil
        encoder.keyBits.reset(columns: count)
        encoder.forgetContainer()
        return encoder
    }

    /// Gives the encoder back to the pool. Its generation stays where it is.
    func recycle() {
        statement = nil
        handle = nil
        forgetContainer()
        RowEncoder.pool.withLock { $0.append(Unmanaged.passRetained(self)) }
    }

    /// Binds every column of `entity` to `statement` (a statement numbered in column order).
    func bind<E: Encodable>(_ entity: E, to statement: Statement) throws(PersistenceError) {
        self.statement = statement
        handle = statement.handle
        next = 0
        failure = nil
        boundMask = 0
        // Bindings outlive a reset: a column the entity skipped would keep the previous row's value.
        if fullMask == nil { statement.clearBindings() }
        generation &+= 1
        keepContainerIfUnheld()
        containerStamp = nextStamp
        do {
            defer {
                generation &+= 1
                containerStamp = nextStamp &+ 1
            }
            try entity.encode(to: RowEncodingScope(unmanaged: Unmanaged.passUnretained(self), generation: generation))
        } catch {
            self.statement = nil
            handle = nil
            throw wrap(error)
        }
        self.statement = nil
        handle = nil
        if let failure { throw wrap(failure) }
        if let fullMask, boundMask != fullMask {
            for index in 0..<count where boundMask & (UInt64(1) << UInt64(index)) == 0 {
                statement.bindNull(at: Int32(index + 1))
                if foldParameters[index] != 0 { statement.bindNull(at: foldParameters[index]) }
            }
        }
    }

    /// The keyed container for the row being encoded: the last one again when its key type is
    /// the same (an entity's rows all ask for the same one), else a new one, kept for the next.
    @inline(__always)
    func keyedContainer<Key: CodingKey>(_ type: Key.Type, row: UInt) -> KeyedEncodingContainer<Key> {
        if kept.holds(ObjectIdentifier(Key.self)) {
            typealias Maker = ContainerOfBox<KeyedEncodingContainer<Key>>
            let (maker, box) = kept.parts
            return unsafeDowncast(maker, to: Maker.self).container(box)
        }
        return newContainer(Key.self, row: row)
    }

    /// A new keyed container, kept for the next rows unless one is kept already. Out of line:
    /// inlined, the rows that get the kept container would look up its type's metadata too.
    @inline(never)
    private func newContainer<Key: CodingKey>(_ type: Key.Type, row: UInt) -> KeyedEncodingContainer<Key> {
        let container = KeyedEncodingContainer(
            RowKeyedEncoder<Key>(unmanaged: Unmanaged.passUnretained(self), stamp: nextStamp, row: row))
        if kept.isEmpty, kept.keep(container, key: ObjectIdentifier(Key.self)) { return container }
        untracked = true
        return container
    }

    /// Before a row (between rows every container fails: the stamp is even): the last container
    /// serves this row too when nothing else holds it; when an entity kept it, it is let go and
    /// this row's containers carry a new stamp, so the kept one fails from now on. (Asked before
    /// the next row, not as a row ends: an unoptimized build may still hold the row's container
    /// for a moment after `encode(to:)` returns.)
    @inline(__always)
    private func keepContainerIfUnheld() {
        if untracked {
            untracked = false
            return forgetContainer()
        }
        if kept.isShared {
            kept.drop()
            nextStamp &+= 2
        }
    }

    /// Lets the last container go (the encoder serves another codec next): its stamp is never
    /// current again.
    private func forgetContainer() {
        kept.drop()
        nextStamp &+= 2
    }

    /// Checks that the value written for the column at `parameter` is of the column's kind.
    @inline(__always)
    func expect(_ kind: ValueKind, at parameter: Int32, wrote: @autoclosure () -> String) throws {
        let index = Int(parameter) - 1
        if kinds[index] != kind { throw wrongKind(at: index, wrote: wrote()) }
    }

    /// The refused write of a value of another kind than the column's (``expect(_:at:wrote:)``).
    @inline(never)
    private func wrongKind(at index: Int, wrote: String) -> PersistenceError {
        refused(ValueCoding.wrongWrite(schema, schema.columns[index], wrote: wrote))
    }

    /// `error`, kept as the row's failure too: a write the store refuses fails the row even when
    /// the entity's `encode(to:)` goes on past the error (`try?`), where the column would keep the
    /// value bound for the previous row.
    func refused<Failure: Error>(_ error: Failure) -> Failure {
        if failure == nil { failure = error }
        return error
    }

    /// Binds text, and its folded form when the column has a folded-text column.
    @inline(__always)
    func bindString(_ value: String, at parameter: Int32) {
        statement?.bindText(value, at: parameter)
        if hasFolds, case let fold = foldParameters[Int(parameter) - 1], fold != 0 {
            statement?.bindText(TextFold.fold(value), at: fold)
        }
    }

    /// An integer the property's own type cannot hold (a custom `encode(to:)` wrote it), kept as
    /// the row's failure (``refused(_:)``).
    func outOfRange(_ value: Int64, at parameter: Int32) -> PersistenceError {
        let column = schema.columns[Int(parameter) - 1]
        return refused(
            ValueCoding.unsupported(
                schema, column,
                "is \(value), which its type \(column.swiftType) cannot hold, so it could not be read back. "
                    + "Encode a value of the property's own type."))
    }

    @inline(__always)
    func bindNull(at parameter: Int32) {
        sqlite3_bind_null(handle, parameter)
        if hasFolds, case let fold = foldParameters[Int(parameter) - 1], fold != 0 { sqlite3_bind_null(handle, fold) }
    }

    @inline(__always)
    func bindDouble(_ value: Double, at parameter: Int32) throws {
        if value.isNaN { throw notANumber(at: parameter) }
        sqlite3_bind_double(handle, parameter, value)
    }

    /// The refused write of NaN (``bindDouble(_:at:)``).
    @inline(never)
    private func notANumber(at parameter: Int32) -> PersistenceError {
        refused(ValueCoding.nan(schema, schema.columns[Int(parameter) - 1]))
    }

    private func wrap(_ error: any Error) -> PersistenceError {
        if let error = error as? PersistenceError {
            if error.message.hasPrefix(schema.entityName) { return error }
            return PersistenceError(
                error.code, "\(schema.entityName): \(error.message)", entity: schema.entityName,
                property: error.property, sqliteCode: error.sqliteCode)
        }
        return PersistenceError(
            .encodingFailed, "\(schema.entityName) could not be encoded into a row: \(error).",
            entity: schema.entityName)
    }

    /// The 1-based parameter index for `key`.
    @inline(__always)
    func parameter<K: CodingKey>(_ key: K) throws -> Int32 {
        if let parameter = predictedParameter(key) { return parameter }
        let bits = KeyBitsTable.bits(of: key)
        let name = key.stringValue
        let index: Int
        if next < count, names[next] == name {
            index = next
        } else {
            guard let found = schema.indexByName[name] else {
                throw PersistenceError(
                    .encodingFailed,
                    "\(schema.entityName) encodes a key '\(name)' that its decoder never reads, so it has no column.",
                    entity: schema.entityName, property: name)
            }
            index = found
        }
        if let bits { keyBits.record(K.self, bits, at: index) }
        boundMask |= UInt64(1) << UInt64(index & 63)
        next = index + 1
        return Int32(next)
    }

    /// `key`'s 1-based parameter when its column is the one after the last written and the same
    /// key named it on an earlier row (a synthesized `encode(to:)` writes its properties in their
    /// order); `nil` otherwise, and then ``parameter(_:)`` finds it by name.
    @inline(__always)
    func predictedParameter<K: CodingKey>(_ key: K) -> Int32? {
        guard let bits = KeyBitsTable.bits(of: key), next < count, keyBits.matches(K.self, bits, at: next) else {
            return nil
        }
        boundMask |= UInt64(1) << UInt64(next & 63)
        next += 1
        // A parameter is below SQLite's variable limit (32,766 at most).
        return Int32(truncatingIfNeeded: next)
    }

    func bindValue<T: Encodable>(_ value: T, at parameter: Int32) throws {
        guard let statement else { return }
        // A `Date` or `Data` property of its own kind, told by its type's metadata: bound without
        // boxing the value in `Any` and casting it back (the general path below).
        switch kinds[Int(parameter) - 1] {
        case .date where T.self == Date.self:
            return try bindDouble(_identityCast(value, to: Date.self).timeIntervalSinceReferenceDate, at: parameter)
        case .data where T.self == Data.self:
            return statement.bindBlob(_identityCast(value, to: Data.self), at: parameter)
        default: break
        }
        let column = schema.columns[Int(parameter) - 1]
        let stored: DatabaseValue
        // A raw-value property of its own type: its raw value, without the general path's casts.
        if let raw = column.raw, raw.type == ObjectIdentifier(T.self),
            let value = withUnsafePointer(to: value, { raw.access.write(UnsafeRawPointer($0)) })
        {
            stored = value
        } else {
            do {
                stored = try ValueCoding.databaseValue(of: value, column: column, schema: schema, json: json)
            } catch {
                throw refused(error)
            }
        }
        if case .integer(let integer) = stored, let range = column.integerRange, !range.contains(integer) {
            throw outOfRange(integer, at: parameter)
        }
        if case .text(let text) = stored {
            bindString(text, at: parameter)
        } else {
            do { try statement.bind(stored, at: parameter) } catch { throw refused(error) }
        }
    }

    /// The error for an encoder or container used after its row's `encode(to:)` returned.
    @inline(never)
    func outlived(_ key: (any CodingKey)?, _ stale: UInt) -> PersistenceError {
        // The encoder may have been recycled for another entity since: name the one it served then.
        let entity = history.withLock { $0.entity(at: stale) }
        return PersistenceError(
            .misuse,
            "\(entity ?? "An entity")'s encode(to:) kept its Encoder or encoding container and used it "
                + (key.map { "to write '\($0.stringValue)' " } ?? "")
                + "after encode(to:) returned; write every property inside encode(to:).",
            entity: entity, property: key?.stringValue)
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        failure =
            failure
            ?? PersistenceError(
                .encodingFailed,
                "\(schema.entityName) encodes itself as an array; an entity must encode a keyed container."
            )
        return DiscardingUnkeyedContainer()
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        failure =
            failure
            ?? PersistenceError(
                .encodingFailed,
                "\(schema.entityName) encodes itself as a single value; an entity must encode a keyed container.")
        return SingleValueCapture()
    }
}
