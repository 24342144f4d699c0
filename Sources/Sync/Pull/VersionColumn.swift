import Foundation
import Persistence

/// Which stored property a collection's version (``ChangeFeed/version``) is the value of, so that
/// a pull compares versions in its upsert (``ConflictRule/onlyIfNewer(_:)``) instead of reading
/// the stored rows of a page first.
enum VersionColumn: Sendable, Equatable {
    /// Not known yet: no record with a version was probed.
    case unprobed
    /// The version is not the value of one stored property (computed from several, transformed,
    /// or a property the collection keeps): a pull reads the stored versions.
    case none
    /// The version is the value of this property (its coding key, the store's column).
    case column(String)

    /// Finds the property `version` reads on `record`: the one top-level property of its JSON
    /// whose value is the record's version (a text or an integer), and, changed to another value
    /// in a copy of the record, changes the copy's version to that value. `keeping` names the
    /// properties the collection keeps from the stored row; a version among them is not used.
    static func probe<Entity: StoredEntity>(
        _ record: Entity, _ version: (Entity) -> RecordVersion?, keeping: [String]
    ) -> VersionColumn {
        guard let current = version(record) else { return .unprobed }
        guard let data = try? Outbox<Entity>.encode(record),
            case .object(let fields)? = try? JSONDecoder().decode(JSONValue.self, from: data)
        else { return .none }
        var found: [String] = []
        for (key, value) in fields {
            let changed: JSONValue
            let expected: RecordVersion
            switch (value, current) {
            case (.string(let text), .text(let versionText)) where text == versionText:
                let other = text + "\u{1}"
                changed = .string(other)
                expected = .text(other)
            case (.integer(let number), .number(let versionNumber)) where number == versionNumber:
                let other = number == .max ? number - 1 : number + 1
                changed = .integer(other)
                expected = .number(other)
            default:
                continue
            }
            var copy = fields
            copy[key] = changed
            guard let data = try? JSONEncoder().encode(JSONValue.object(copy)),
                let probe = try? SyncJSON.decode(Entity.self, from: data), version(probe) == expected
            else { continue }
            found.append(key)
        }
        guard found.count == 1, let key = found.first, !keeping.contains(key) else { return .none }
        return .column(key)
    }
}

extension SyncedCollection {
    /// The property the collection's version is the value of, probed on the first of `records`
    /// with a version when not known yet; `nil` when a pull reads the stored versions instead.
    func versionColumn(probing records: [Entity]) -> String? {
        guard let version = remote.changes.version else { return nil }
        let known = versionColumn.withLock { $0 }
        if case .column(let column) = known { return column }
        guard known == .unprobed else { return nil }
        let keeping = remote.keeping.map(\.property)
        for record in records {
            let found = VersionColumn.probe(record, version, keeping: keeping)
            guard found != .unprobed else { continue }
            versionColumn.withLock { $0 = found }
            if case .column(let column) = found { return column }
            return nil
        }
        return nil
    }
}
