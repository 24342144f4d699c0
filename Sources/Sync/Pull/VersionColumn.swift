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
    /// whose value is the record's version (a text or an integer) and whose every trial value,
    /// set in a copy of the record, is the copy's version: one just above the record's, one far
    /// below it and one far above (a text with capitals, a number near each end of its range),
    /// and `null` for an optional property, whose version must then be `nil` (a text may also
    /// make `""` a `nil` version). A version that is the larger of two properties, one property
    /// or another when it is missing, transformed or clamped fails a trial. `keeping` names the
    /// properties the collection keeps from the stored row; a version among them is not used.
    static func probe<Entity: StoredEntity>(
        _ record: Entity, _ version: (Entity) -> RecordVersion?, keeping: [String]
    ) -> VersionColumn {
        guard let current = version(record) else { return .unprobed }
        guard let data = try? Outbox<Entity>.encode(record),
            case .object(let fields)? = try? JSONDecoder().decode(JSONValue.self, from: data)
        else { return .none }
        /// The version of the record with `key` set to `value`; `nil` when that copy does not decode.
        func trial(_ key: String, _ value: JSONValue) -> RecordVersion?? {
            var copy = fields
            copy[key] = value
            guard let data = try? JSONEncoder().encode(JSONValue.object(copy)),
                let probe = try? SyncJSON.decode(Entity.self, from: data)
            else { return nil }
            return .some(version(probe))
        }
        var found: [String] = []
        for (key, value) in fields {
            // The trial values, each with the version it must give; the first must decode.
            var trials: [(value: JSONValue, expected: RecordVersion?, orNil: Bool)]
            switch (value, current) {
            case (.string(let text), .text(let versionText)) where text == versionText:
                trials = [
                    (.string(text + "\u{1}Zz"), .text(text + "\u{1}Zz"), false),
                    (.string("0"), .text("0"), false), (.string("\u{10FFFF}Zz"), .text("\u{10FFFF}Zz"), false),
                    (.string(""), .text(""), true),
                ]
            case (.integer(let number), .number(let versionNumber)) where number == versionNumber:
                let next = number == .max ? number - 1 : number + 1
                trials = [
                    (.integer(next), .number(next), false), (.integer(.min + 1), .number(.min + 1), false),
                    (.integer(.max - 1), .number(.max - 1), false),
                ]
            default:
                continue
            }
            trials.append((.null, nil, false))
            var passes = true
            for (index, (value, expected, orNil)) in trials.enumerated() {
                guard let outcome = trial(key, value) else {
                    // A value the property's type does not take (a narrower integer, a non-optional
                    // property and `null`) tests nothing; the first must be taken.
                    if index == 0 { passes = false }
                    continue
                }
                if outcome != expected, !(orNil && outcome == nil) {
                    passes = false
                    break
                }
            }
            if passes { found.append(key) }
        }
        guard found.count == 1, let key = found.first, !keeping.contains(key) else { return .none }
        return .column(key)
    }
}

extension SyncedCollection {
    /// Whether `error` is the store refusing the version test on `column` (a misuse naming it, or
    /// no such column): the page is then applied with a read of the stored versions.
    static func refusesVersionTest(_ error: SyncError, _ column: String?) -> Bool {
        guard let column, let refusal = error.persistenceError, refusal.property == column else { return false }
        return refusal.code == .misuse || refusal.code == .unknownProperty
    }

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
