import Foundation

/// A record as its top-level properties (its encoded keys), each a JSON value: what conflicts,
/// merges and partial updates compare, field by field. A property that is absent and one that
/// is `null` compare the same; a property taken from another record is written as that record
/// has it (an explicit `null` stays, for a decoder that requires the key).
struct RecordFields: Equatable, Sendable {
    var values: [String: JSONValue]

    /// The properties of `record`, or `nil` when it does not encode as a JSON object.
    init?(_ record: some Encodable) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(record) else { return nil }
        self.init(data: data)
    }

    /// The properties of a JSON object, or `nil` when `data` is not one.
    init?(data: Data) {
        guard case .object(let values)? = try? JSONDecoder().decode(JSONValue.self, from: data) else { return nil }
        self.values = values
    }

    /// The value of `key`, `null` when absent.
    subscript(key: String) -> JSONValue {
        values[key] ?? .null
    }

    /// The properties whose values differ from `base`'s (every property of either, without one).
    func changed(from base: RecordFields?) -> Set<String> {
        guard let base else { return Set(values.keys) }
        return Set(values.keys).union(base.values.keys).filter { self[$0] != base[$0] }
    }

    /// These properties with `keys` taken from `other`, as `other` has them (absent when it has
    /// none).
    func taking(_ keys: some Sequence<String>, from other: RecordFields) -> RecordFields {
        var copy = self
        for key in keys { copy.values[key] = other.values[key] }
        return copy
    }

    /// The properties as JSON, keys sorted.
    var data: Data {
        get throws {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            return try encoder.encode(JSONValue.object(values))
        }
    }

    /// The properties decoded as `type`.
    func decoded<T: Decodable>(as type: T.Type) throws -> T {
        try SyncJSON.decode(type, from: data)
    }
}
