import Foundation
import Persistence

/// A record the server deleted whose local row other collections of its group still refer to:
/// deleted after those collections are pulled, so no delete rule fires on a half-applied pull.
struct SyncHeldDelete: StoredEntity {
    /// `collection` and record identity.
    var id: String
    var collection: String
    var recordID: String
    /// The record's identity, JSON-encoded.
    var identity: Data
    /// Whether the server still has the record: a parent held only for the rows that refer to it
    /// (it left the collection's scopes, or was looked up), not one the server deleted. Its
    /// waiting writes are never rebased as on a delete.
    var onServer: Bool?

    static let entityName = "SyncHeldDelete"
    static let collection = Field<SyncHeldDelete, String>("collection")
    static let recordID = Field<SyncHeldDelete, String>("recordID")
    static let indexes = [EntityIndex(collection, recordID)]

    init(collection: String, recordID: String, identity: Data, onServer: Bool = false) {
        self.onServer = onServer ? true : nil
        self.id = "\(collection)\u{1F}\(recordID)"
        self.collection = collection
        self.recordID = recordID
        self.identity = identity
    }
}
