import Foundation
public import Persistence

/// A local change and a server change to the same record, both made from the same base.
public struct Conflict<Entity: StoredEntity>: Sendable {
    /// The server's version the local change started from; `nil` for a local create.
    public var base: Entity?
    /// The record as changed locally; `nil` for a local delete.
    public var local: Entity?
    /// The record as it is on the server now; `nil` when the server deleted it.
    public var remote: Entity?
}

/// What becomes of a conflict.
public enum Resolution<Entity: StoredEntity>: Sendable {
    /// The server's version stands: the local change is dropped.
    case keepRemote
    /// The local change stands: it is sent over the server's version.
    case keepLocal
    /// This record replaces both: it becomes the local row and is sent.
    case use(Entity)
    /// Nobody decides now: the write is parked as ``PendingWrite/State-swift.enum/conflicted``
    /// (with base, local and remote) for the app to resolve with ``SyncedCollection/resolve(_:with:)``.
    case park
}

/// How a collection resolves conflicts: server wins, client wins, a field-by-field three-way
/// merge, a closure, or the app's own choice later.
///
/// A conflict is a server version that differs from the base of a pending local write. It is
/// found when a pull brings the record while the write waits (the pull then rebases the write
/// instead of overwriting the row), and, with a ``ConflictCheck``, when the update is sent.
public struct ConflictPolicy<Entity: StoredEntity>: Sendable {
    /// Decides a conflict.
    public let resolve: @Sendable (Conflict<Entity>) -> Resolution<Entity>

    /// A policy from a closure.
    ///
    /// - Parameter resolve: decides each conflict.
    public init(_ resolve: @escaping @Sendable (Conflict<Entity>) -> Resolution<Entity>) {
        self.resolve = resolve
    }

    /// The server's version wins; the local change is dropped.
    public static var serverWins: ConflictPolicy { ConflictPolicy { _ in .keepRemote } }

    /// The local change wins and is sent over the server's version (a local delete deletes the
    /// server's record; a local change to a record the server deleted creates it again).
    public static var clientWins: ConflictPolicy { ConflictPolicy { _ in .keepLocal } }

    /// Conflicts are parked for the app (``Resolution/park``).
    public static var manual: ConflictPolicy { ConflictPolicy { _ in .park } }

    /// A field-by-field three-way merge: a property only one side changed since the base takes
    /// that side's value; a property both changed takes `preferring`'s. A delete on either side
    /// against a change on the other keeps the change when `preferring` is that side, else
    /// deletes. Properties are the entity's encoded top-level keys.
    ///
    /// - Parameter side: whose value a property both sides changed takes.
    /// - Returns: the policy.
    public static func merge(preferring side: Side = .server) -> ConflictPolicy {
        ConflictPolicy { conflict in
            guard let local = conflict.local else { return side == .local ? .keepLocal : .keepRemote }
            guard let remote = conflict.remote else { return side == .local ? .keepLocal : .keepRemote }
            guard let merged = FieldMerge.merge(base: conflict.base, local: local, remote: remote, preferring: side)
            else { return side == .local ? .keepLocal : .keepRemote }
            return .use(merged)
        }
    }

    /// A side of a conflict.
    public enum Side: Sendable, Hashable {
        /// The server's version.
        case server
        /// The local change.
        case local
    }
}

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
    /// when putting the remote's value into the base changes the base's version. With
    /// `emptyHolds`, a `local` that changed nothing is held by any `remote`.
    static func holdsChanges<E: StoredEntity>(
        of local: E, since base: E, _ remote: E, version: (@Sendable (E) -> RecordVersion?)?, emptyHolds: Bool = false
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
        return (emptyHolds || !changed.isEmpty) && changed.allSatisfy { remoteObject[$0.key] == $0.value }
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
