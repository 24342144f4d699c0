import Foundation

/// One column of an entity's table.
struct ColumnSchema: Sendable, Hashable {
    let name: String
    /// What the column holds, from the property's declared type.
    let kind: ValueKind
    /// Whether the property is a `RawRepresentable` stored by its raw value.
    let isRaw: Bool
    let isOptional: Bool
    /// The property's declared Swift type, for messages.
    let swiftType: String
    /// How store format 1 held the column.
    let legacy: LegacyStorage
    /// The values the property's integer type holds, when it is narrower than SQLite's 64 bits.
    var integerRange: ClosedRange<Int64>? = nil
    /// How a raw-value property is written and read without casts, when its raw value is a
    /// `String` or an integer.
    var raw: RawAccess? = nil

    var storage: Storage { kind.storage }
    var sqlType: String { storage.declaredType }
}

/// What the store knows about one entity: its columns (derived from Codable), keys, and SQL.
///
/// The fixed parts live in one shared, immutable ``Parts`` value behind a class reference, so a
/// copy (every codec, decoder and query renderer takes one) is four retains instead of one per
/// string and array.
struct EntitySchema: Sendable {
    /// The parts every copy shares.
    final class Shared: Sendable {
        let parts: Parts
        init(_ parts: Parts) { self.parts = parts }
    }

    private(set) var shared: Shared
    /// The foreign keys of its to-one relations, resolved against the store's other entities
    /// when it opens (see `StoreCore`).
    var foreignKeys: [ForeignKey] = []
    /// The link tables of its shorthand many-to-many relations, resolved the same way.
    var links: [LinkTable] = []
    /// Every schema of the store, for filters and prefetches that cross relations; `nil` in the
    /// copies the registry itself holds.
    var registry: SchemaRegistry?

    init<E: StoredEntity>(_ type: E.Type) throws(PersistenceError) {
        shared = Shared(try Parts(type))
    }

    var entityName: String { @inline(__always) get { shared.parts.entityName } }
    var typeName: String { @inline(__always) get { shared.parts.typeName } }
    var keyStorage: ObjectIdentifier { @inline(__always) get { shared.parts.keyStorage } }
    var columns: [ColumnSchema] { @inline(__always) get { shared.parts.columns } }
    var names: [String] { @inline(__always) get { shared.parts.names } }
    var indexByName: [String: Int] { @inline(__always) get { shared.parts.indexByName } }
    var idColumn: Int { @inline(__always) get { shared.parts.idColumn } }
    var uniqueKeys: [[String]] { @inline(__always) get { shared.parts.uniqueKeys } }
    var indexes: [(columns: [String], caseInsensitive: Bool)] { @inline(__always) get { shared.parts.indexes } }
    var defaults: [String: DatabaseValue] { @inline(__always) get { shared.parts.defaults } }
    var fullText: [String] { @inline(__always) get { shared.parts.fullText } }
    var foldNames: [String?] { @inline(__always) get { shared.parts.foldNames } }
    var foldParameters: [Int32] { @inline(__always) get { shared.parts.foldParameters } }
    var table: String { @inline(__always) get { shared.parts.table } }
    var columnList: String { @inline(__always) get { shared.parts.columnList } }
    var insertSQL: String { @inline(__always) get { shared.parts.insertSQL } }
    var upsertByIDSQL: String { @inline(__always) get { shared.parts.upsertByIDSQL } }
    var updateSQL: String { @inline(__always) get { shared.parts.updateSQL } }
    var deleteByIDSQL: String { @inline(__always) get { shared.parts.deleteByIDSQL } }
    var selectSQL: String { @inline(__always) get { shared.parts.selectSQL } }
    var selectByIDSQL: String { @inline(__always) get { shared.parts.selectByIDSQL } }
    var relations: [RelationDeclaration] { @inline(__always) get { shared.parts.relations } }
}

extension EntitySchema {
    /// The fixed parts of a schema, derived once from the entity's type.
    struct Parts: Sendable {
        let entityName: String
        let typeName: String
        let keyStorage: ObjectIdentifier
        var columns: [ColumnSchema]
        var names: [String]
        var indexByName: [String: Int]
        let idColumn: Int
        let uniqueKeys: [[String]]
        let indexes: [(columns: [String], caseInsensitive: Bool)]
        let defaults: [String: DatabaseValue]
        /// The properties of the full-text index, empty when the entity has none.
        let fullText: [String]

        /// The hidden column that holds the folded text of column `i` (``TextFold``), for the text
        /// columns of case-insensitive indexes; `nil` for the others.
        let foldNames: [String?]
        /// The statement parameter (1-based) of each column's folded text, 0 when it has none.
        let foldParameters: [Int32]

        let table: String
        let columnList: String
        let insertSQL: String
        let upsertByIDSQL: String
        let updateSQL: String
        let deleteByIDSQL: String
        let selectSQL: String
        let selectByIDSQL: String

        /// The relations the entity declares, in order.
        let relations: [RelationDeclaration]

        init<E: StoredEntity>(_ type: E.Type) throws(PersistenceError) {
            entityName = E.entityName
            typeName = String(reflecting: E.self)
            keyStorage = ObjectIdentifier(E.self)
            columns = try SchemaProbe.columns(of: E.self)
            names = columns.map(\.name)
            var byName: [String: Int] = [:]
            for (offset, name) in names.enumerated() { byName[name] = offset }
            indexByName = byName
            let idName = E.idField.name
            guard let id = byName[idName] else {
                throw PersistenceError(
                    .unknownProperty,
                    "\(E.entityName) has no stored property '\(idName)' for its identity. Its stored properties are: "
                        + names.joined(separator: ", ") + ". Set `static var idField` to one of them.",
                    entity: E.entityName, property: idName)
            }
            idColumn = id
            uniqueKeys = E.uniqueKeys.map(\.columns)
            indexes = E.indexes.map { ($0.columns, $0.caseInsensitive) }
            var defaults: [String: DatabaseValue] = [:]
            for item in E.columnDefaults { defaults[item.column] = item.value }
            self.defaults = defaults
            for key in uniqueKeys + indexes.map(\.columns) {
                for column in key where byName[column] == nil {
                    throw PersistenceError(
                        .unknownProperty,
                        "\(E.entityName) declares a key or index on '\(column)', which is not one of its stored properties ("
                            + names.joined(separator: ", ") + ").",
                        entity: E.entityName, property: column)
                }
            }
            fullText = E.fullTextIndex?.columns ?? []
            for name in fullText {
                guard let index = byName[name] else {
                    throw PersistenceError(
                        .unknownProperty,
                        "\(E.entityName)'s full-text index names '\(name)', which is not one of its stored properties ("
                            + names.joined(separator: ", ") + ").", entity: E.entityName, property: name)
                }
                guard columns[index].kind == .string else {
                    throw PersistenceError(
                        .unsupportedValue,
                        "\(E.entityName)'s full-text index names '\(name)', a \(columns[index].swiftType); a full-text index "
                            + "holds String properties only.", entity: E.entityName, property: name)
                }
            }
            for name in names where ["rowid", "oid", "_rowid_"].contains(name.lowercased()) {
                throw PersistenceError(
                    .misuse,
                    "\(E.entityName).\(name) is named like SQLite's row id, which the store uses to order and track "
                        + "rows. Rename the property's coding key.", entity: E.entityName, property: name)
            }
            for name in names where name.lowercased().hasPrefix(EntitySchema.foldPrefix) {
                throw PersistenceError(
                    .misuse,
                    "\(E.entityName).\(name) begins with \"\(EntitySchema.foldPrefix)\", which the store reserves for its "
                        + "folded-text columns. Rename the property's coding key.", entity: E.entityName, property: name
                )
            }
            var folded = Set<String>()
            for index in indexes where index.caseInsensitive {
                for name in index.columns where columns[byName[name] ?? 0].kind == .string { folded.insert(name) }
            }
            var foldNames: [String?] = []
            var foldParameters: [Int32] = []
            var nextParameter = Int32(names.count)
            for name in names {
                if folded.contains(name) {
                    nextParameter += 1
                    foldNames.append(EntitySchema.foldPrefix + name)
                    foldParameters.append(nextParameter)
                } else {
                    foldNames.append(nil)
                    foldParameters.append(0)
                }
            }
            self.foldNames = foldNames
            self.foldParameters = foldParameters
            for column in defaults.keys where byName[column] == nil {
                throw PersistenceError(
                    .unknownProperty, "\(E.entityName) declares a default for '\(column)', which it does not store.",
                    entity: E.entityName, property: column)
            }

            relations = try RelationDeclaration.declared(by: E.self, columns: columns, byName: byName)

            table = quote(entityName)
            columnList = names.map(quote).joined(separator: ", ")
            // Written columns: the properties, then the folded texts, numbered in that order.
            let written = names + foldNames.compactMap { $0 }
            let placeholders = (1...written.count).map { "?\($0)" }.joined(separator: ", ")
            insertSQL = "INSERT INTO \(table) (\(written.map(quote).joined(separator: ", "))) VALUES (\(placeholders))"
            let idQuoted = quote(names[id])
            let assignments = written.enumerated().filter { $0.offset != id }
                .map { "\(quote($0.element)) = ?\($0.offset + 1)" }.joined(separator: ", ")
            let excluded = written.enumerated().filter { $0.offset != id }
                .map { "\(quote($0.element)) = excluded.\(quote($0.element))" }.joined(separator: ", ")
            let onConflict = excluded.isEmpty ? "DO NOTHING" : "DO UPDATE SET \(excluded)"
            upsertByIDSQL = "\(insertSQL) ON CONFLICT(\(idQuoted)) \(onConflict)"
            updateSQL =
                assignments.isEmpty
                ? "UPDATE \(table) SET \(idQuoted) = ?\(id + 1) WHERE \(idQuoted) = ?\(id + 1)"
                : "UPDATE \(table) SET \(assignments) WHERE \(idQuoted) = ?\(id + 1)"
            deleteByIDSQL = "DELETE FROM \(table) WHERE \(idQuoted) = ?1"
            selectSQL = "SELECT \(columnList) FROM \(table)"
            selectByIDSQL = "\(selectSQL) WHERE \(idQuoted) = ?1"
        }
    }
}

extension EntitySchema {
    var idName: String { names[idColumn] }

    /// The FTS5 table of the entity's full-text index.
    var fullTextTable: String { "fk_fts_" + entityName }

    /// The prefix of the store's folded-text columns.
    static let foldPrefix = "fk_fold_"

    /// The columns written besides the properties: the folded texts.
    var foldColumns: [(source: String, name: String)] {
        zip(names, foldNames).compactMap { source, fold in fold.map { (source, $0) } }
    }

    /// The folded-text column of a property, if it has one.
    func foldName(of column: String) -> String? {
        indexByName[column].flatMap { foldNames[$0] }
    }

    /// The upsert statement matching on a unique key: the stored row keeps its identity.
    func upsertSQL(matching key: [String]) -> String {
        let keySet = Set(key)
        let written = names + foldNames.compactMap { $0 }
        let excluded = written.enumerated().filter { $0.offset != idColumn && !keySet.contains($0.element) }
            .map { "\(quote($0.element)) = excluded.\(quote($0.element))" }.joined(separator: ", ")
        let action = excluded.isEmpty ? "DO NOTHING" : "DO UPDATE SET \(excluded)"
        return "\(insertSQL) ON CONFLICT(\(key.map(quote).joined(separator: ", "))) \(action)"
    }

    static func uniqueIndexName(table: String, columns: [String]) -> String {
        "fk_unique_\(table)_" + columns.joined(separator: "_")
    }

    static func indexName(table: String, columns: [String], caseInsensitive: Bool) -> String {
        "fk_index_\(table)_" + columns.joined(separator: "_") + (caseInsensitive ? "_folded" : "")
    }

    /// The position of the column `name` among the entity's columns.
    func columnIndex(named name: String, for use: String) throws(PersistenceError) -> Int {
        _ = try column(named: name, for: use)
        return indexByName[name] ?? 0
    }

    func column(named name: String, for use: String) throws(PersistenceError) -> ColumnSchema {
        guard let index = indexByName[name] else {
            throw PersistenceError(
                .unknownProperty,
                "\(entityName) has no stored property '\(name)' (used in \(use)). Its stored properties are: "
                    + names.joined(separator: ", ") + ".",
                entity: entityName, property: name)
        }
        return columns[index]
    }
}

/// Quotes an SQL identifier (Sync's raw statements quote theirs with it too).
package func quote(_ identifier: String) -> String {
    // Most names hold no quote: they skip Foundation's replace, which bridges the string on Linux.
    guard identifier.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + identifier + "\"" }
    return "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}

/// Renders a value as an SQL literal, for DDL defaults only (DDL cannot bind).
func sqlLiteral(_ value: DatabaseValue) -> String {
    switch value {
    case .null: return "NULL"
    case .integer(let v): return String(v)
    case .real(let v): return v.isFinite ? "\(v)" : "NULL"
    case .text(let v): return "'" + v.replacingOccurrences(of: "'", with: "''") + "'"
    case .blob(let v): return "X'" + v.map { String(format: "%02X", $0) }.joined() + "'"
    }
}

extension EntitySchema {
    /// A copy whose column order follows a raw query's result columns (for `fetch(_:sql:)`).
    init(reordering schema: EntitySchema, to resultColumns: [String]) throws(PersistenceError) {
        var columns: [ColumnSchema] = []
        var byName: [String: Int] = [:]
        for (offset, name) in resultColumns.enumerated() where byName[name] == nil {
            byName[name] = offset
        }
        for name in schema.names
        where byName[name] == nil && !(schema.columns[schema.indexByName[name] ?? 0].isOptional) {
            throw PersistenceError(
                .decodingFailed,
                "The SQL query does not return \(schema.entityName)'s column '\(name)'; select all its columns.",
                entity: schema.entityName, property: name)
        }
        for name in resultColumns {
            let base = schema.indexByName[name].map { schema.columns[$0] }
            columns.append(
                base
                    ?? ColumnSchema(
                        name: name, kind: .data, isRaw: false, isOptional: true, swiftType: "an unused column",
                        legacy: .same))
        }
        self = schema
        var parts = schema.shared.parts
        parts.columns = columns
        parts.names = resultColumns
        parts.indexByName = byName
        shared = Shared(parts)
    }
}
