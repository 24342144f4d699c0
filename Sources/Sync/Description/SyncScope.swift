import Foundation
import Persistence

/// A part of a collection a device pulls instead of the whole: "my shelves", "the last 30 days".
///
/// A scope is its name and its parameters; the collection's ``RemoteCollection/narrowing`` turns
/// them into the listing's query (by default each parameter is a query item). Set a
/// collection's scopes with ``SyncedCollection/scope(to:)``:
///
/// ```swift
/// try await shelves.scope(to: [SyncScope("mine", parameters: ["owner": userID])])
/// try await shelves.sync()  // lists my shelves from the start, then prunes the others
/// ```
///
/// Each scope has its own cursor, and the mirror remembers which scope listed each row. A
/// scope whose parameters change is another scope: it is listed from the start.
public struct SyncScope: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The scope's name, as the app calls it.
    public var name: String
    /// What narrows the listing to the scope, as the server takes it (a filter, an owner, a date).
    public var parameters: [String: String]

    /// A scope.
    ///
    /// - Parameters:
    ///   - name: the scope's name.
    ///   - parameters: what narrows the listing to it; none by default.
    public init(_ name: String, parameters: [String: String] = [:]) {
        self.name = name
        self.parameters = parameters
    }

    /// The scope's name, with its parameters sorted by name: `mine(owner=u1)`. It keys the
    /// scope's cursor in the store.
    public var description: String {
        guard !parameters.isEmpty else { return name }
        return name + "(" + parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ") + ")"
    }

    /// The id of the scope's checkpoint in `collection`: the collection's name and the scope as
    /// JSON with sorted keys (two scopes never share one).
    func key(in collection: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? description
        return "\(collection)\u{1F}\(json)"
    }
}

/// A row a scope's listing named: kept while a scope that listed it is one of its collection's
/// scopes (see ``SyncedCollection/scope(to:)``).
struct SyncScopeMember: StoredEntity {
    /// The scope's key and the record's identity.
    var id: String
    var collection: String
    /// The scope's key (``SyncScope/key(in:)``).
    var scope: String
    var recordID: String

    static let entityName = "SyncScopeMember"
    static let collection = Field<SyncScopeMember, String>("collection")
    static let scope = Field<SyncScopeMember, String>("scope")
    static let recordID = Field<SyncScopeMember, String>("recordID")
    static let indexes = [EntityIndex(collection, recordID), EntityIndex(scope)]

    init(collection: String, scope: String, recordID: String) {
        self.id = "\(scope)\u{1F}\(recordID)"
        self.collection = collection
        self.scope = scope
        self.recordID = recordID
    }
}

extension SyncScope {
    /// The scope's parameters as query items, sorted by name.
    var queryItems: [URLQueryItem] {
        parameters.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
    }
}
