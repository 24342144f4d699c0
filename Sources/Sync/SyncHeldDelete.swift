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

    static let entityName = "SyncHeldDelete"
    static let collection = Field<SyncHeldDelete, String>("collection")
    static let recordID = Field<SyncHeldDelete, String>("recordID")
    static let indexes = [EntityIndex(collection, recordID)]

    init(collection: String, recordID: String, identity: Data) {
        self.id = "\(collection)\u{1F}\(recordID)"
        self.collection = collection
        self.recordID = recordID
        self.identity = identity
    }
}
