/// What rows can be grouped by, in ``ObjectTransaction/groups(_:by:aggregating:having:sortedBy:limit:)``:
/// a property (``Field``), the row a to-one relation refers to (``ToOne``), or a property of that
/// row (``RelatedField``, as `Book.author.name`).
public protocol GroupingKey<Value>: Sendable {
    /// The value each group reports for this key.
    associatedtype Value: Sendable
    /// How the store groups by this key and reads its value.
    var grouping: Grouping<Value> { get }
}

extension Field: GroupingKey where Value: Decodable {
    /// Groups rows by equal values of the property; text with a case-insensitive ``EntityIndex``
    /// groups by its folded form, reported as the smallest of its texts by code point.
    public var grouping: Grouping<Value> {
        let name = self.name
        return Grouping(entity: ObjectIdentifier(Entity.self), entityName: Entity.entityName, key: .column(name)) {
            _, _ throws(PersistenceError) in
            { reader throws(PersistenceError) in try reader.value(Value.self, of: name) }
        }
    }
}

extension ToOne: GroupingKey {
    /// The value a group reports for the relation: the row its rows refer to.
    public typealias Value = Target

    /// Groups rows by the row they refer to (by their reference, using its index); the referred
    /// rows are then read in one query. Rows whose reference is `nil` belong to no group.
    public var grouping: Grouping<Target> {
        let column = self.column
        return Grouping(
            entity: ObjectIdentifier(Source.self), entityName: Source.entityName, key: .related(referencePath, nil)
        ) { tx, keys throws(PersistenceError) in
            let target = try tx.connection.codec(Target.self).schema
            var related = QuerySQL(schema: target)
            related.sql = "\(target.selectSQL) WHERE \(quote(target.idName)) IN (\(keys.sql))"
            related.arguments = keys.arguments
            related.fullTextQueries = keys.fullTextQueries
            let statement = try tx.connection.statement(for: related)
            var byKey: [DatabaseValue: Target] = [:]
            do {
                defer { statement.reset() }
                let decoder = RowDecoder.make(schema: target, statement: statement)
                defer { decoder.recycle() }
                let idIndex = Int32(target.idColumn)
                while try statement.step() {
                    byKey[statement.value(at: idIndex)] = try decoder.decodeRow(Target.self)
                }
            }
            let found = byKey
            return { reader throws(PersistenceError) in
                let reference = reader.raw()
                guard let row = found[reference] else {
                    throw PersistenceError(
                        .missingReference,
                        "\(Source.entityName).\(column) refers to \(Target.entityName) \(reference), which does not "
                            + "exist; the row was changed outside the entity's own writes.",
                        entity: Source.entityName, property: column)
                }
                return row
            }
        }
    }
}

extension RelatedField: GroupingKey where Value: Decodable {
    /// Groups rows by a property of the row they refer to, read by a lookup of its identity. Rows
    /// whose reference is `nil` belong to no group; text with a case-insensitive ``EntityIndex``
    /// groups by its folded form, as for a property of the grouped entity.
    public var grouping: Grouping<Value> {
        let path = relation.referencePath
        let name = field.name
        return Grouping(entity: ObjectIdentifier(Source.self), entityName: Source.entityName, key: .related(path, name))
        { tx, _ throws(PersistenceError) in
            let target = try QuerySQL(schema: try tx.connection.codec(Source.self).schema)
                .relatedTarget(path, for: "a grouping")
            return { reader throws(PersistenceError) in try reader.value(Value.self, of: name, in: target) }
        }
    }
}
