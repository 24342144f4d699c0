import Foundation
import GRDB

/// GRDB's record for the persistence cases: the Codable record GRDB users write.
struct GRDBItem: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "items"
    var i0: Int
    var i1: Int
    var i2: Int
    var i3: Int
    var i4: Int
    var i5: Int
    var i6: Int
    var i7: Int
    var i8: Int
    var i9: Int

    init(_ item: BenchItem) {
        (i0, i1, i2, i3, i4) = (item.i0, item.i1, item.i2, item.i3, item.i4)
        (i5, i6, i7, i8, i9) = (item.i5, item.i6, item.i7, item.i8, item.i9)
    }
}

/// Opens a GRDB queue on `path` with the same journal settings as the other sides.
func openGRDB(path: String) throws -> DatabaseQueue {
    var configuration = Configuration()
    configuration.prepareDatabase { db in
        try db.execute(sql: "PRAGMA synchronous=NORMAL; PRAGMA cache_size=-65536")
    }
    let queue = try DatabaseQueue(path: path, configuration: configuration)
    try queue.writeWithoutTransaction { db in
        _ = try String.fetchOne(db, sql: "PRAGMA journal_mode=WAL")
        try db.execute(sql: RawSQLite.createItems)
    }
    return queue
}
