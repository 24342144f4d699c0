import Foundation
import Persistence

/// The three-way merge of encoded records.
enum FieldMerge {
    static func merge<E: StoredEntity>(
        base: E?, local: E, remote: E, preferring side: ConflictPolicy<E>.Side
    ) -> E? {
        guard let localObject = object(local), let remoteObject = object(remote) else { return nil }
        let baseObject = base.flatMap(object) ?? [:]
        var merged = remoteObject
        for key in Set(localObject.keys).union(remoteObject.keys) {
            let b = baseObject[key], l = localObject[key], r = remoteObject[key]
            let localChanged = l != b, remoteChanged = r != b
            switch (localChanged, remoteChanged) {
            case (true, false): merged[key] = l
            case (true, true): merged[key] = side == .local ? l : r
            default: merged[key] = r
            }
        }
        return decode(E.self, merged)
    }

    /// Whether `remote` holds every property `local` changed from `base` (and `local` changed
    /// at least one): a write whose answer was lost finds itself applied. The properties that
    /// make up the record's version (the server stamps them) are left out: a property is one
    /// when putting the remote's value into the base changes the base's version.
    static func holdsChanges<E: StoredEntity>(
        of local: E, since base: E, _ remote: E, version: (@Sendable (E) -> RecordVersion?)?
    ) -> Bool {
        guard let localObject = object(local), let baseObject = object(base), let remoteObject = object(remote)
        else { return false }
        let baseVersion = version?(base)
        func isVersion(_ key: String) -> Bool {
            guard let version, let baseVersion, let value = remoteObject[key], baseObject[key] != value else {
                return false
            }
            var probe = baseObject
            probe[key] = value
            guard let record = decode(E.self, probe) else { return false }
            return version(record) != baseVersion
        }
        let changed = localObject.filter { baseObject[$0.key] != $0.value && !isVersion($0.key) }
        return !changed.isEmpty && changed.allSatisfy { remoteObject[$0.key] == $0.value }
    }

    /// A record from properties given as JSON texts.
    private static func decode<E: Decodable>(_ type: E.Type, _ object: [String: String]) -> E? {
        let text = "{" + object.keys.sorted().map { "\(quoted($0)):\(object[$0] ?? "null")" }
            .joined(separator: ",") + "}"
        return try? SyncJSON.decode(E.self, from: Data(text.utf8))
    }

    /// The record's top-level properties, each as its canonical JSON text.
    private static func object<E: Encodable>(_ value: E) -> [String: String]? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(value),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return nil }
        var result: [String: String] = [:]
        for (key, value) in object {
            let data = try? JSONSerialization.data(
                withJSONObject: [value], options: [.sortedKeys, .fragmentsAllowed])
            // The value's text without the array's brackets.
            result[key] = data.map { String(decoding: $0.dropFirst().dropLast(), as: UTF8.self) }
        }
        return result
    }

    private static func quoted(_ key: String) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: [key])) ?? Data("[\"\"]".utf8)
        return String(decoding: data.dropFirst().dropLast(), as: UTF8.self)
    }
}
