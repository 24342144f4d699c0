/// A to-one relation's foreign key, resolved against its target's schema.
struct ForeignKey: Sendable, Hashable {
    let column: String
    let isOptional: Bool
    let targetName: String
    let targetID: String
    let rule: DeleteRule
    let label: String

    /// The column constraint that makes the column a foreign key.
    var clause: String {
        "REFERENCES \(quote(targetName)) (\(quote(targetID))) ON DELETE \(rule.sqlAction)"
    }
}

/// The link table of a shorthand many-to-many relation: `source`, `target` and `position`
/// columns, one row per link.
struct LinkTable: Sendable, Hashable {
    let name: String
    let table: String
    let sourceName: String
    let sourceID: String
    let sourceType: String
    let targetName: String
    let targetID: String
    let targetType: String
    let label: String

    var createSQL: [String] {
        let table = quote(self.table)
        func type(_ sqlType: String) -> String { sqlType.isEmpty ? "" : " \(sqlType)" }
        return [
            "CREATE TABLE \(table) (source\(type(sourceType)) NOT NULL REFERENCES \(quote(sourceName)) "
                + "(\(quote(sourceID))) ON DELETE CASCADE, target\(type(targetType)) NOT NULL REFERENCES "
                + "\(quote(targetName)) (\(quote(targetID))) ON DELETE CASCADE, position INTEGER NOT NULL, "
                + "PRIMARY KEY (source, target))",
            "CREATE INDEX IF NOT EXISTS \(quote(self.table + "_target")) ON \(table) (target)",
        ]
    }
}

/// Every schema of one store, by type and by name, with what the relations between them imply.
///
/// Made once when the store opens; immutable afterwards.
final class SchemaRegistry: Sendable {
    let byKey: [ObjectIdentifier: EntitySchema]
    let byName: [String: EntitySchema]
    /// For each entity name, the foreign keys of other entities that refer to it.
    let referrers: [String: [Referrer]]
    /// For each entity name, the tables a delete of its rows may change besides its own (through
    /// cascade and nullify rules, transitively, and link tables).
    let deleteReach: [String: Set<String>]

    struct Referrer: Sendable {
        let source: String
        let key: ForeignKey
    }

    init(_ schemas: [EntitySchema]) {
        var byKey: [ObjectIdentifier: EntitySchema] = [:]
        var byName: [String: EntitySchema] = [:]
        var referrers: [String: [Referrer]] = [:]
        var links: [String: Set<String>] = [:]
        for schema in schemas {
            byKey[schema.key] = schema
            byName[schema.entityName] = schema
            for key in schema.foreignKeys {
                referrers[key.targetName, default: []].append(Referrer(source: schema.entityName, key: key))
            }
            for link in schema.links {
                links[link.sourceName, default: []].insert(link.table)
                links[link.targetName, default: []].insert(link.table)
            }
        }
        var reach: [String: Set<String>] = [:]
        for schema in schemas {
            var seen: Set<String> = []
            var pending = [schema.entityName]
            while let name = pending.popLast() {
                seen.formUnion(links[name] ?? [])
                for referrer in referrers[name] ?? []
                where referrer.key.rule == .cascade || referrer.key.rule == .nullify {
                    if seen.insert(referrer.source).inserted, referrer.key.rule == .cascade {
                        pending.append(referrer.source)
                    }
                }
            }
            seen.remove(schema.entityName)
            reach[schema.entityName] = seen
        }
        self.byKey = byKey
        self.byName = byName
        self.referrers = referrers
        deleteReach = reach
    }
}

extension RelationDeclaration {
    /// The relations `E` declares, checked against its columns.
    static func declared<E: StoredEntity>(
        by entity: E.Type, columns: [ColumnSchema], byName: [String: Int]
    ) throws(PersistenceError) -> [RelationDeclaration] {
        var result: [RelationDeclaration] = []
        var names: Set<String> = []
        for relation in E.relations {
            guard let declared = relation as? any DeclaredRelation else {
                throw PersistenceError(
                    .misuse,
                    "\(E.entityName).relations holds a \(Swift.type(of: relation)), which is not one of the store's relation "
                        + "types; declare relations with ToOne and ManyToMany.", entity: E.entityName)
            }
            let declaration = declared.declaration
            switch declaration.kind {
            case .toOne(let column):
                guard let index = byName[column] else {
                    throw PersistenceError(
                        .unknownProperty,
                        "\(E.entityName)'s relation to \(declaration.targetName) is held by '\(column)', which is not one "
                            + "of its stored properties (" + columns.map(\.name).joined(separator: ", ") + ").",
                        entity: E.entityName, property: column)
                }
                if declaration.rule == .nullify, !columns[index].isOptional {
                    throw PersistenceError(
                        .misuse,
                        "\(E.entityName).\(column) refers to \(declaration.targetName) with the delete rule nullify, "
                            + "which sets it to nil, but it is a \(columns[index].swiftType). Make it Optional, or "
                            + "choose cascade, deny or none.", entity: E.entityName, property: column)
                }
                guard names.insert(column).inserted else {
                    throw PersistenceError(
                        .misuse, "\(E.entityName) declares two relations held by '\(column)'; declare each once.",
                        entity: E.entityName, property: column)
                }
            case .link(let name):
                guard names.insert("link:" + name).inserted else {
                    throw PersistenceError(
                        .misuse, "\(E.entityName) declares two many-to-many relations named '\(name)'.",
                        entity: E.entityName, property: name)
                }
            case .through:
                break
            }
            result.append(declaration)
        }
        return result
    }

    /// Resolves every schema's relations against the others: the targets must be among the
    /// store's entities, keys must be stored like the identities they refer to, and cascades must
    /// not form a cycle. Returns the schemas with their foreign keys, links and registry.
    static func resolve(_ schemas: [EntitySchema]) throws(PersistenceError) -> [EntitySchema] {
        var byKey: [ObjectIdentifier: EntitySchema] = [:]
        for schema in schemas { byKey[schema.key] = schema }
        var resolved: [EntitySchema] = []
        for var schema in schemas {
            for declaration in schema.relations {
                guard let target = byKey[declaration.target] else {
                    throw PersistenceError(
                        .misuse,
                        "\(declaration.label) refers to \(declaration.targetName), which is not one of the entities "
                            + "this store was opened with. Pass \(declaration.targetTypeName).self in the entities "
                            + "list as well as \(schema.typeName).self.", entity: schema.entityName,
                        property: declaration.label)
                }
                let targetID = target.columns[target.idColumn]
                switch declaration.kind {
                case .toOne(let column):
                    let source = schema.columns[schema.indexByName[column] ?? 0]
                    guard source.storage == targetID.storage else {
                        throw PersistenceError(
                            .misuse,
                            "\(schema.entityName).\(column) (a \(source.swiftType), stored as \(source.storage.rawValue)) "
                                + "refers to \(target.entityName), whose identity \(target.idName) is a "
                                + "\(targetID.swiftType) stored as \(targetID.storage.rawValue). Declare the property "
                                + "with the target's identity type.", entity: schema.entityName, property: column)
                    }
                    schema.foreignKeys.append(
                        ForeignKey(
                            column: column, isOptional: source.isOptional, targetName: target.entityName,
                            targetID: target.idName, rule: declaration.rule, label: declaration.label))
                case .link(let name):
                    let sourceID = schema.columns[schema.idColumn]
                    schema.links.append(
                        LinkTable(
                            name: name, table: linkTableName(source: schema.entityName, name: name),
                            sourceName: schema.entityName, sourceID: schema.idName, sourceType: sourceID.sqlType,
                            targetName: target.entityName, targetID: target.idName, targetType: targetID.sqlType,
                            label: declaration.label))
                case .through(let join, let joinName, let sourceColumn, let targetColumn):
                    try checkJoin(
                        byKey[join], joinName: joinName, source: schema, sourceColumn: sourceColumn, target: target,
                        targetColumn: targetColumn)
                }
            }
            resolved.append(schema)
        }
        try checkCascadeCycles(resolved)
        let registry = SchemaRegistry(resolved)
        return resolved.map { schema in
            var schema = schema
            schema.registry = registry
            return schema
        }
    }

    private static func checkJoin(
        _ join: EntitySchema?, joinName: String, source: EntitySchema, sourceColumn: String, target: EntitySchema,
        targetColumn: String
    ) throws(PersistenceError) {
        guard let join else {
            throw PersistenceError(
                .misuse,
                "\(source.entityName)'s many-to-many relation to \(target.entityName) goes through \(joinName), which is "
                    + "not one of the entities this store was opened with. Pass it in the entities list.",
                entity: source.entityName, property: joinName)
        }
        for (column, end) in [(sourceColumn, source), (targetColumn, target)] {
            let declared = join.relations.contains {
                $0.kind == .toOne(column: column) && $0.targetName == end.entityName
            }
            guard declared else {
                throw PersistenceError(
                    .misuse,
                    "\(joinName).\(column) joins \(source.entityName) to \(target.entityName), but \(joinName) does not "
                        + "declare it as a ToOne relation to \(end.entityName) in its relations.",
                    entity: joinName, property: column)
            }
        }
        let pair = Set([sourceColumn, targetColumn])
        guard join.uniqueKeys.contains(where: { Set($0) == pair && $0.count == 2 }) else {
            throw PersistenceError(
                .misuse,
                "\(joinName) joins \(source.entityName) to \(target.entityName) but has no unique key over "
                    + "(\(sourceColumn), \(targetColumn)), so one pair could be stored twice. Add "
                    + "UniqueKey(\(sourceColumn), \(targetColumn)) to its uniqueKeys.", entity: joinName,
                property: sourceColumn)
        }
    }

    /// Refuses cascade rules that form a cycle (a row whose delete would come back to delete it).
    private static func checkCascadeCycles(_ schemas: [EntitySchema]) throws(PersistenceError) {
        // An edge target -> source: deleting a target row deletes the source rows.
        var edges: [String: [(source: String, label: String)]] = [:]
        for schema in schemas {
            for key in schema.foreignKeys where key.rule == .cascade {
                edges[key.targetName, default: []].append((schema.entityName, key.label))
            }
        }
        var state: [String: Int] = [:]  // 1 visiting, 2 done
        var path: [(name: String, label: String)] = []
        func visit(_ name: String) -> [String]? {
            state[name] = 1
            for edge in edges[name] ?? [] {
                if state[edge.source] == 1 {
                    let start = path.firstIndex { $0.name == edge.source }.map { $0 + 1 } ?? path.count
                    return Array(path[start...].map(\.label)) + [edge.label]
                }
                if state[edge.source] == nil {
                    path.append((edge.source, edge.label))
                    if let cycle = visit(edge.source) { return cycle }
                    path.removeLast()
                }
            }
            state[name] = 2
            return nil
        }
        for schema in schemas where state[schema.entityName] == nil {
            path = [(schema.entityName, schema.entityName)]
            if let cycle = visit(schema.entityName) {
                throw PersistenceError(
                    .misuse,
                    "The cascade delete rules of " + cycle.joined(separator: ", ")
                        + " form a cycle: a delete would come back to the row it started from. Give one of them the "
                        + "rule nullify, deny or none.", entity: schema.entityName, property: cycle.first)
            }
        }
    }
}
