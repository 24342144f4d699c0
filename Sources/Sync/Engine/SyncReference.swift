import Foundation
import Persistence

/// A to-one relation as a group of synced collections reads it: the reference a child record
/// holds to its parent, by the relation's foreign-key property.
protocol SyncReference<Source>: Sendable {
    associatedtype Source: StoredEntity
    /// The foreign-key property (its coding key).
    var column: String { get }
    /// The parent entity's table name.
    var targetName: String { get }
    /// What deleting a parent does to its children.
    var deleteRule: DeleteRule { get }
    /// Whether the reference may be `nil`.
    var isOptional: Bool { get }
    /// The rows that refer to the parent `id` (`nil` when `id` is not of the parent's identity type).
    func rows(referringTo id: any Sendable, limit: Int?, in tx: ObjectTransaction) throws -> [Source]
}

extension ToOne: SyncReference {
    var targetName: String { Target.entityName }

    func rows(referringTo id: any Sendable, limit: Int?, in tx: ObjectTransaction) throws -> [Source] {
        guard let id = id as? Target.ID else { return [] }
        let filter = isOptional ? Field<Source, Target.ID?>(column) == id : Field<Source, Target.ID>(column) == id
        return try tx.fetch(Query<Source>(where: filter, limit: limit))
    }
}

extension StoredEntity {
    /// The entity's to-one relations.
    static var syncReferences: [any SyncReference<Self>] {
        relations.compactMap { $0 as? any SyncReference<Self> }
    }
}

/// Reading and changing the reference a record's JSON (an outbox payload, the encoded row) holds.
enum ReferenceJSON {
    /// The identity `column` holds in the JSON object `data`, as text (`nil` for none, `null`, or
    /// a value that is not an identity).
    static func reference(_ column: String, in data: Data?) -> String? {
        guard let data, let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            return nil
        }
        return text(object[column])
    }

    /// The references each of `columns` holds in `data`.
    static func references(_ columns: [String], in data: Data?) -> [String: String] {
        guard let data, let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            return [:]
        }
        var found: [String: String] = [:]
        for column in columns { found[column] = text(object[column]) }
        return found
    }

    /// The JSON object `data` with `column` set to `null`.
    static func clearing(_ column: String, in data: Data) throws -> Data {
        guard var object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else { return data }
        object[column] = NSNull()
        return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    }

    private static func text(_ value: Any?) -> String? {
        switch value {
        case let text as String: return text
        case let number as NSNumber:
            // An identity is an integer or text (`DatabaseValue.identityText` of an integer).
            let integer = number.int64Value
            return NSNumber(value: integer) == number ? String(integer) : nil
        default: return nil
        }
    }
}
