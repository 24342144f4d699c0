import Foundation

/// A record's properties that changed since its base, as a JSON object: the body of a partial
/// update (PocketBase's `PATCH`, JSON Merge Patch), so that a change to one field never sends
/// another device's field back.
///
/// ```swift
/// update: { note, base in NotesAPI.patch(note.id, body: .json(ChangedFields(note, since: base))) }
/// ```
///
/// A property is compared by its encoded value at the top level (a nested object is one value);
/// a property the record no longer has is written as `null`. Without a base (a record not yet
/// known to the server) every property is written. Encode with the same type on both sides:
/// map the record to the server's fields first when they differ
/// (`ChangedFields(Fields(book), since: base.map(Fields.init))`).
public struct ChangedFields<Value: Encodable>: Encodable {
    /// The record as changed.
    public var value: Value
    /// The record as the server last had it, or `nil` to write every property.
    public var base: Value?

    /// The properties of `value` that differ from `base`'s.
    ///
    /// - Parameters:
    ///   - value: the record as changed locally.
    ///   - base: the record the change started from (the `base` an update request is given), or
    ///     `nil` to write every property.
    public init(_ value: Value, since base: Value?) {
        self.value = value
        self.base = base
    }

    /// Writes the changed properties as one JSON object.
    ///
    /// - Parameter encoder: the encoder.
    /// - Throws: `EncodingError` when a side does not encode as a JSON object.
    public func encode(to encoder: any Encoder) throws {
        let (fields, changed) = try changes()
        var object = encoder.container(keyedBy: JSONValue.AnyKey.self)
        for key in changed.sorted() { try object.encode(fields[key], forKey: JSONValue.AnyKey(key)) }
    }

    private func changes() throws -> (RecordFields, Set<String>) {
        guard let fields = RecordFields(value) else {
            throw EncodingError.invalidValue(
                value, EncodingError.Context(codingPath: [], debugDescription: "\(Value.self) does not encode as a JSON object."))
        }
        guard let base else { return (fields, Set(fields.values.keys)) }
        guard let baseFields = RecordFields(base) else {
            throw EncodingError.invalidValue(
                base, EncodingError.Context(codingPath: [], debugDescription: "\(Value.self) does not encode as a JSON object."))
        }
        return (fields, fields.changed(from: baseFields))
    }
}

extension ChangedFields: Sendable where Value: Sendable {}
