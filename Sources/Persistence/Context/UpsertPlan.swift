import Foundation

/// The statement of an upsert with conflict rules: `INSERT … ON CONFLICT(<target>) DO UPDATE SET …`,
/// the values its rules bind after the entity's own, and the guard that refuses a `+=` past a
/// property's type or the version test of an ``ConflictRule/onlyIfNewer(_:)`` rule.
final class UpsertPlan {
    /// The statement.
    let sql: String
    /// The rules' values, bound from parameter ``firstArgument`` on.
    let arguments: [DatabaseValue]
    /// The parameter of the first rule value (after the entity's written columns).
    let firstArgument: Int
    /// Whether the update has a `WHERE` that refuses an overflowing `+=` (then a matched row that
    /// was not written means the guard refused it).
    let isGuarded: Bool
    /// Whether the update has a `WHERE` that compares versions (then a matched row that was not
    /// written was as new or newer: ``UpsertOutcome/kept``).
    let isVersioned: Bool
    /// The error for a refused `+=`.
    let overflow: PersistenceError

    init<E: StoredEntity>(
        _ schema: EntitySchema, matching key: [String]?, rules: [ConflictRule<E>]
    ) throws(PersistenceError) {
        let target = key ?? [schema.idName]
        let fixed = Set(target + [schema.idName])
        var byColumn: [String: ConflictRule<E>.Action] = [:]
        var versionColumn: ColumnSchema?
        for rule in rules {
            let column = try schema.column(named: rule.column, for: "an upsert's conflict rule")
            guard !fixed.contains(column.name) else {
                throw PersistenceError(
                    .misuse,
                    "An upsert of \(schema.entityName) has a conflict rule for '\(column.name)', which identifies the "
                        + "matched row and is never changed by the upsert; remove the rule.",
                    entity: schema.entityName, property: column.name)
            }
            guard byColumn.updateValue(rule.action, forKey: column.name) == nil else {
                throw PersistenceError(
                    .misuse,
                    "An upsert of \(schema.entityName) has two conflict rules for '\(column.name)'; give it one.",
                    entity: schema.entityName, property: column.name)
            }
            if case .newer = rule.action {
                try Self.checkVersion(column, replacing: versionColumn, schema)
                versionColumn = column
            }
        }
        let written = schema.names + schema.foldNames.compactMap { $0 }
        let first = written.count + 1
        let foldSources = Dictionary(
            uniqueKeysWithValues: schema.foldColumns.map { ($0.name, $0.source) })
        let stored = { (name: String) in "\(schema.table).\(quote(name))" }
        var sets: [String] = []
        var guards: [String] = []
        var arguments: [DatabaseValue] = []
        var added: [ColumnSchema] = []
        func parameter(_ value: DatabaseValue) -> String {
            arguments.append(value)
            return "?\(first + arguments.count - 1)"
        }
        for name in written where !fixed.contains(name) {
            let quoted = quote(name)
            if let source = foldSources[name] {
                // A folded text follows its property: kept with it, set with it, or the new value's.
                switch byColumn[source] {
                case .keep: continue
                case .assign(.set(let value)):
                    let column = try schema.column(named: source, for: "an upsert's conflict rule")
                    let value = try ObjectTransaction.storedValue(value, column, schema)
                    sets.append("\(quoted) = \(parameter(TextFold.folded(value)))")
                default: sets.append("\(quoted) = excluded.\(quoted)")
                }
                continue
            }
            let column = try schema.column(named: name, for: "an upsert")
            switch byColumn[name] {
            case .keep:
                continue
            case .newer:
                sets.append("\(quoted) = excluded.\(quoted)")
            case .assign(.set(let value)):
                let value = try ObjectTransaction.storedValue(value, column, schema)
                sets.append("\(quoted) = \(parameter(value))")
            case .assign(.add(let amount)):
                try ObjectTransaction.checkAddition(amount, to: column, schema)
                let amountParameter = parameter(amount)
                sets.append("\(quoted) = \(stored(name)) + \(amountParameter)")
                if column.kind == .integer {
                    let range = column.integerRange ?? Int64.min...Int64.max
                    guards.append(
                        "(\(stored(name)) IS NULL OR (\(stored(name)) + \(amountParameter)) BETWEEN "
                            + "\(parameter(.integer(range.lowerBound))) AND \(parameter(.integer(range.upperBound))))")
                } else {
                    guards.append("(\(stored(name)) IS NULL OR (\(stored(name)) + \(amountParameter)) IS NOT NULL)")
                }
                added.append(column)
            case nil:
                sets.append("\(quoted) = excluded.\(quoted)")
            }
        }
        if let versionColumn, !guards.isEmpty {
            throw PersistenceError(
                .misuse,
                "An upsert of \(schema.entityName) compares versions (onlyIfNewer on '\(versionColumn.name)') and "
                    + "adds to a stored value: a row it leaves alone could not be told from a refused addition. "
                    + "Use one of the two rules.", entity: schema.entityName, property: versionColumn.name)
        }
        if let versionColumn {
            let name = quote(versionColumn.name)
            guards.append(
                "(excluded.\(name) IS NULL OR \(stored(versionColumn.name)) IS NULL OR excluded.\(name) > \(stored(versionColumn.name)))"
            )
        }
        let action =
            sets.isEmpty
            ? "DO NOTHING"
            : "DO UPDATE SET " + sets.joined(separator: ", ")
                + (guards.isEmpty ? "" : " WHERE " + guards.joined(separator: " AND "))
        sql = "\(schema.insertSQL) ON CONFLICT(\(target.map(quote).joined(separator: ", "))) \(action)"
        self.arguments = arguments
        firstArgument = first
        isVersioned = versionColumn != nil
        isGuarded = !guards.isEmpty && !isVersioned
        let names = added.map(\.name).joined(separator: ", ")
        overflow =
            added.first.map { first in
                PersistenceError(
                    .unsupportedValue,
                    "An upsert of \(schema.entityName) would take the stored \(names) past what "
                        + (added.count == 1 ? "its type holds" : "their types hold")
                        + " (an integer beyond its type, or a Double made NaN); nothing was written.",
                    entity: schema.entityName, property: first.name)
            }
            ?? PersistenceError(
                .unsupportedValue, "An upsert of \(schema.entityName) wrote nothing.", entity: schema.entityName)
    }

    /// Refuses a version rule on a column whose values do not order as versions, or a second one.
    private static func checkVersion(
        _ column: ColumnSchema, replacing earlier: ColumnSchema?, _ schema: EntitySchema
    ) throws(PersistenceError) {
        if let earlier {
            throw PersistenceError(
                .misuse,
                "An upsert of \(schema.entityName) compares versions on '\(earlier.name)' and '\(column.name)'; "
                    + "give it one onlyIfNewer rule.", entity: schema.entityName, property: column.name)
        }
        switch column.kind {
        case .integer, .double, .float, .date, .string: return
        default:
            throw PersistenceError(
                .misuse,
                "An upsert of \(schema.entityName) compares versions on '\(column.name)', a \(column.swiftType), "
                    + "which does not order as a version; use a number, Date or String property.",
                entity: schema.entityName, property: column.name)
        }
    }
}
