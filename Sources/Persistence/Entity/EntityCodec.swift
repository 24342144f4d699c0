/// Per-connection, per-entity state: the cached statements and the reusable row coders.
final class EntityCodec {
    let schema: EntitySchema
    let encoder: RowEncoder
    private unowned let connection: Connection
    private var insertStatement: Statement?
    private var upsertStatement: Statement?
    private var updateStatement: Statement?
    private var deleteStatement: Statement?
    private var selectByIDStatement: Statement?
    private var selectByIDDecoder: RowDecoder?

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

    private func statement(_ slot: inout Statement?, _ sql: String) throws(PersistenceError) -> Statement {
        if let statement = slot {
            statement.reset()
            return statement
        }
        let statement = try connection.cached(sql)
        slot = statement
        return statement
    }

    func insert() throws(PersistenceError) -> Statement { try statement(&insertStatement, schema.insertSQL) }
    func upsert() throws(PersistenceError) -> Statement { try statement(&upsertStatement, schema.upsertByIDSQL) }
    func update() throws(PersistenceError) -> Statement { try statement(&updateStatement, schema.updateSQL) }
    func delete() throws(PersistenceError) -> Statement { try statement(&deleteStatement, schema.deleteByIDSQL) }

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
    func codec<E: StoredEntity>(_ type: E.Type) throws(PersistenceError) -> EntityCodec {
        let key = ObjectIdentifier(E.self)
        if let codec = codecs[key] { return codec }
        guard let schema = schemas[key] else {
            throw PersistenceError(
                .misuse,
                "\(E.entityName) is not one of this store's entities. Pass \(E.self).self in the entities "
                    + "list when opening the ObjectStore.",
                entity: E.entityName)
        }
        let codec = EntityCodec(schema: schema, connection: self)
        codecs[key] = codec
        return codec
    }
}
