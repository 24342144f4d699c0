import Persistence

/// A record a walk saw.
struct SyncSeenRecord: StoredEntity {
    /// `collection`, generation and record identity.
    var id: String
    var collection: String
    var generation: Int64
    var recordID: String

    static let entityName = "SyncSeenRecord"
    static let collection = Field<SyncSeenRecord, String>("collection")
    static let generation = Field<SyncSeenRecord, Int64>("generation")
    static let indexes = [EntityIndex(collection, generation)]

    init(collection: String, generation: Int64, recordID: String) {
        self.id = "\(collection)\u{1F}\(generation)\u{1F}\(recordID)"
        self.collection = collection
        self.generation = generation
        self.recordID = recordID
    }
}
