/// Per-connection, per-entity state: the cached statements and the reusable row coders.
final class EntityCodec {
    let schema: EntitySchema
    let encoder: RowEncoder
    private unowned let connection: Connection
    @exclusivity(unchecked) private var insertStatement: Statement?
    @exclusivity(unchecked) private var upsertStatement: Statement?
    @exclusivity(unchecked) private var updateStatement: Statement?
    @exclusivity(unchecked) private var deleteStatement: Statement?
    @exclusivity(unchecked) private var selectByIDStatement: Statement?
    private var selectByIDDecoder: RowDecoder?
    /// The plan of the last upsert whose rules bind no value (keeps, version tests), with its
    /// rules: a pull's page upserts many records with the same rules.
    private var lastPlan:
        (key: [String]?, rules: [(column: String, newer: Bool)], plan: UpsertPlan, statement: Statement)?

    init(schema: EntitySchema, connection: Connection) {
        self.schema = schema
        self.connection = connection
        encoder = RowEncoder.make(schema: schema)
    }

    deinit {
        // The coders go back to their pools: a container an entity kept may still refer to them.
        selectByIDDecoder?.recycle()
        encoder.recycle()
    }

    @inline(__always)
    private func statement(_ slot: inout Statement?, _ sql: String) throws(PersistenceError) -> Statement {
        if let statement = slot {
            statement.reset()
            return statement
        }
        return try prepared(&slot, sql)
    }

    /// ``statement(_:_:)`` the first time: the connection's cached statement for `sql`, kept.
    @inline(never)
    private func prepared(_ slot: inout Statement?, _ sql: String) throws(PersistenceError) -> Statement {
        let statement = try connection.cached(sql)
        slot = statement
        return statement
    }

    @inline(__always)
    func insert() throws(PersistenceError) -> Statement { try statement(&insertStatement, schema.insertSQL) }
    func upsert() throws(PersistenceError) -> Statement { try statement(&upsertStatement, schema.upsertByIDSQL) }
    func update() throws(PersistenceError) -> Statement { try statement(&updateStatement, schema.updateSQL) }
    func delete() throws(PersistenceError) -> Statement { try statement(&deleteStatement, schema.deleteByIDSQL) }

    /// The plan and statement of an upsert with `rules`: the last one again when its rules bind
    /// no value (keeps, version tests) and are the same, else built (and kept when they bind none).
    func upsert<E: StoredEntity>(
        matching key: [String]?, rules: [ConflictRule<E>]
    ) throws(PersistenceError) -> (plan: UpsertPlan, statement: Statement) {
        if let last = lastPlan, last.key == key, Self.same(last.rules, rules) {
            last.statement.reset()
            return (last.plan, last.statement)
        }
        let plan = try UpsertPlan(schema, matching: key, rules: rules)
        let statement = try connection.cached(plan.sql)
        var kept: [(column: String, newer: Bool)] = []
        for rule in rules {
            switch rule.action {
            case .keep: kept.append((rule.column, false))
            case .newer: kept.append((rule.column, true))
            case .assign: return (plan, statement)
            }
        }
        lastPlan = (key, kept, plan, statement)
        return (plan, statement)
    }

    /// Whether `rules` are the kept ones (a loop, not generic sequence algorithms: this runs at
    /// every upsert with rules, unspecialized).
    private static func same<E: StoredEntity>(
        _ kept: [(column: String, newer: Bool)], _ rules: [ConflictRule<E>]
    ) -> Bool {
        guard kept.count == rules.count else { return false }
        var index = 0
        while index < kept.count {
            let rule = rules[index]
            switch rule.action {
            case .keep: if kept[index].newer { return false }
            case .newer: if !kept[index].newer { return false }
            case .assign: return false
            }
            if kept[index].column != rule.column { return false }
            index += 1
        }
        return true
    }

    func selectByID() throws(PersistenceError) -> (Statement, RowDecoder) {
        let statement = try statement(&selectByIDStatement, schema.selectByIDSQL)
        if let decoder = selectByIDDecoder { return (statement, decoder) }
        let decoder = RowDecoder.make(schema: schema, statement: statement)
        decoder.end()  // each fetch by identity is a use of its own
        selectByIDDecoder = decoder
        return (statement, decoder)
    }
}

extension Connection {
    /// The codec for `E`, or a clear error when `E` is not one of the store's entities.
    @inline(__always)
    func codec<E: StoredEntity>(_ type: E.Type) throws(PersistenceError) -> EntityCodec {
        if let lastCodec, lastCodec.key == ObjectIdentifier(E.self) { return lastCodec.codec }
        return try codecLookedUp(E.self)
    }

    /// ``codec(_:)`` for an entity other than the last one's.
    @inline(never)
    private func codecLookedUp<E: StoredEntity>(_ type: E.Type) throws(PersistenceError) -> EntityCodec {
        let key = ObjectIdentifier(E.self)
        if let codec = codecs[key] {
            lastCodec = (key, codec)
            return codec
        }
        guard let schema = schemas[key] else {
            throw PersistenceError(
                .misuse,
                "\(E.entityName) is not one of this store's entities. Pass \(E.self).self in the entities "
                    + "list when opening the ObjectStore.",
                entity: E.entityName)
        }
        let codec = EntityCodec(schema: schema, connection: self)
        codecs[key] = codec
        lastCodec = (key, codec)
        return codec
    }
}
