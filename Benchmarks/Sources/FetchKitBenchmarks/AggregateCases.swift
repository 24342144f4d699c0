import Dispatch
import Foundation
import Persistence

#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLiteBench
#endif

/// One sale of the aggregate and update-by-filter cases: a region of ten (indexed), an account
/// of a thousand, an integer amount, a price and a note.
struct BenchSale: StoredEntity, Equatable {
    static let entityName = "sales"
    var id: Int
    var region: Int
    var account: Int
    var amount: Int
    var price: Double
    var note: String

    static let region = Field<BenchSale, Int>("region")
    static let account = Field<BenchSale, Int>("account")
    static let amount = Field<BenchSale, Int>("amount")
    static let price = Field<BenchSale, Double>("price")
    static let indexes = [EntityIndex(region)]

    /// Row `n`'s sale.
    static func make(_ n: Int) -> BenchSale {
        BenchSale(
            id: n, region: n % 10, account: (n &* 7_919) % 1_000, amount: n % 997, price: Double(n % 10_000) / 100,
            note: "sale \(n)")
    }
}

let saleRows = 1_000_000
/// The sum case's filter: half of the rows.
let saleSumMinimumPrice = 50.0
/// The update case's region: a tenth of the rows (100,000).
let saleUpdatedRegion = 3

/// The SQL ``ObjectTransaction/sum(_:where:)`` runs for `tx.sum(BenchSale.amount, where:
/// BenchSale.price >= 50.0)` (see `AggregateSQL.swift`: the sum, then the count of values it
/// needs to tell an empty sum from an overflow).
let saleSumSQL = "SELECT SUM(\"amount\"), COUNT(\"amount\") FROM \"sales\" WHERE \"price\" >= ?"
/// The SQL of `tx.groups(Query<BenchSale>(), by: BenchSale.account, aggregating: Aggregate.count(of: BenchSale.self),
/// BenchSale.price.average())`: per account, the row count, then the average and the count of
/// values it needs to tell an empty group from a NULL.
let saleGroupsSQL =
    "SELECT \"account\", COUNT(*), AVG(\"price\"), COUNT(\"price\") FROM \"sales\" GROUP BY \"account\" "
    + "ORDER BY \"account\" ASC"

/// The store files of the aggregate and update cases, made once per run: one file of
/// `saleRows` sales written by FetchKit, copied for the sides that change rows.
final class SaleFiles {
    let aggregatePath: String
    let observedPath: String
    let unobservedPath: String
    /// The sum of `amount` over the rows priced at least `saleSumMinimumPrice`.
    let expectedSum: Int

    init(_ scratch: Scratch) throws {
        aggregatePath = scratch.path("sales.sqlite")
        observedPath = scratch.path("sales-observed.sqlite")
        unobservedPath = scratch.path("sales-unobserved.sqlite")
        for name in ["sales.sqlite", "sales-observed.sqlite", "sales-unobserved.sqlite"] {
            scratch.removeDatabase(name)
        }
        var sum = 0
        do {
            let store = try ObjectStore(at: URL(fileURLWithPath: aggregatePath), entities: [BenchSale.self])
            defer { store.close() }
            try store.context.persistAndWait { tx in
                for n in 0..<saleRows {
                    let sale = BenchSale.make(n)
                    if sale.price >= saleSumMinimumPrice { sum += sale.amount }
                    try tx.insert(sale)
                }
            }
        }
        expectedSum = sum
        try RawSQLite(path: aggregatePath).execute("PRAGMA wal_checkpoint(TRUNCATE)")
        for path in [observedPath, unobservedPath] {
            try FileManager.default.copyItem(atPath: aggregatePath, toPath: path)
        }
    }
}

// MARK: Sum

/// FetchKit's side of the sum case: `tx.sum` of an integer property over the rows a filter keeps.
func oursSumSide(_ files: @escaping () throws -> SaleFiles) -> Side {
    let store = lazily { try ObjectStore(at: URL(fileURLWithPath: files().aggregatePath), entities: [BenchSale.self]) }
    return Side(name: "FetchKit sum") {
        let (files, store) = (try files(), try store())
        var sum = 0
        let duration = try time {
            sum = try store.context.readAndWait { tx in
                try tx.sum(BenchSale.amount, where: BenchSale.price >= saleSumMinimumPrice)
            }
        }
        guard sum == files.expectedSum else { throw RawSQLite.Failure(description: "FetchKit sum read \(sum)") }
        return duration
    }
}

/// Raw C's side of the sum case: the same SQL through a prepared statement, the sum read as an
/// integer and the count as FetchKit reads it.
func rawSumSide(_ files: @escaping () throws -> SaleFiles) -> Side {
    let db = lazily { try RawSQLite(path: files().aggregatePath) }
    let statement = lazily { try db().prepare(saleSumSQL) }
    return Side(name: "raw C, the same SQL") {
        let (files, statement) = (try files(), try statement())
        var sum = 0
        var counted = 0
        let duration = time {
            sqlite3_bind_double(statement, 1, saleSumMinimumPrice)
            if sqlite3_step(statement) == SQLITE_ROW {
                sum = Int(sqlite3_column_int64(statement, 0))
                counted = Int(sqlite3_column_int64(statement, 1))
            }
            sqlite3_reset(statement)
        }
        guard sum == files.expectedSum, counted == saleRows / 2 else {
            throw RawSQLite.Failure(description: "raw sum read \(sum) over \(counted) rows")
        }
        return duration
    }
}

// MARK: Group by

/// FetchKit's side of the group-by case: per account, the count and the average price.
func oursGroupsSide(_ files: @escaping () throws -> SaleFiles) -> Side {
    let store = lazily { try ObjectStore(at: URL(fileURLWithPath: files().aggregatePath), entities: [BenchSale.self]) }
    return Side(name: "FetchKit groups") {
        let store = try store()
        var groups: [(Int, Int, Double?)] = []
        let duration = try time {
            groups = try store.context.readAndWait { tx in
                try tx.groups(
                    Query<BenchSale>(), by: BenchSale.account, aggregating: Aggregate.count(of: BenchSale.self),
                    BenchSale.price.average())
            }
        }
        try checkSaleGroups(groups.map { ($0.0, $0.1) }, "FetchKit")
        return duration
    }
}

/// Raw C's side of the group-by case: the same SQL, each row read into a tuple as FetchKit's.
func rawGroupsSide(_ files: @escaping () throws -> SaleFiles) -> Side {
    let db = lazily { try RawSQLite(path: files().aggregatePath) }
    let statement = lazily { try db().prepare(saleGroupsSQL) }
    return Side(name: "raw C, the same SQL") {
        let statement = try statement()
        var groups: [(Int, Int, Double?)] = []
        let duration = time {
            while sqlite3_step(statement) == SQLITE_ROW {
                let average: Double? =
                    sqlite3_column_type(statement, 2) == SQLITE_NULL ? nil : sqlite3_column_double(statement, 2)
                groups.append(
                    (Int(sqlite3_column_int64(statement, 0)), Int(sqlite3_column_int64(statement, 1)), average))
            }
            sqlite3_reset(statement)
        }
        try checkSaleGroups(groups.map { ($0.0, $0.1) }, "raw C")
        return duration
    }
}

/// Checks a group-by result: a thousand accounts in order, counting every row.
private func checkSaleGroups(_ groups: [(Int, Int)], _ side: String) throws {
    guard groups.count == 1_000, groups.map(\.0) == Array(0..<1_000), groups.reduce(0, { $0 + $1.1 }) == saleRows
    else {
        throw RawSQLite.Failure(
            description: "\(side) groups: \(groups.count) groups, \(groups.reduce(0) { $0 + $1.1 }) rows")
    }
}

// MARK: Update by filter, observed

/// An observed store of `saleRows` sales: the observed query is one region's sales (100,000),
/// most expensive first; each delivery after the first is kept for the side to check.
final class ObservedSales: @unchecked Sendable {
    // `last` is guarded by `lock`; `delivered` is a semaphore; the rest is used from the
    // benchmark's thread only.
    let store: ObjectStore
    private var token: ObservationToken?
    private let lock = NSLock()
    private var last: QueryChange<BenchSale>?
    private let delivered = DispatchSemaphore(value: 0)

    static let query = Query<BenchSale>(
        where: BenchSale.region == saleUpdatedRegion, sortedBy: [BenchSale.amount.descending()])

    init(path: String) throws {
        store = try ObjectStore(at: URL(fileURLWithPath: path), entities: [BenchSale.self])
        token = store.observe(.query(Self.query)) { [self] change in
            if !change.isInitial { lock.withLock { last = change } }
            delivered.signal()
        }
        delivered.wait()
    }

    /// Runs `write` in one persist and waits for the observer's delivery; returns the time from
    /// the start of the persist to the delivery, and from the persist's return (its commit is
    /// done) to the delivery, after checking that the delivery says exactly that every observed
    /// row was updated in place.
    func timeUntilDelivery(
        _ write: (ObjectTransaction) throws -> Void
    ) throws -> (
        whole: Duration, afterCommit: Duration
    ) {
        lock.withLock { last = nil }
        let clock = ContinuousClock()
        let start = clock.now
        try store.context.persistAndWait(write)
        let committed = clock.now
        delivered.wait()
        let end = clock.now
        guard let change = lock.withLock({ last }) else {
            throw RawSQLite.Failure(description: "the observer delivered no change")
        }
        let rows = saleRows / 10
        let changes = change.changes
        guard change.results.count == rows, changes.updated == Array(0..<rows), changes.inserted.isEmpty,
            changes.deleted.isEmpty, changes.moved.isEmpty
        else {
            throw RawSQLite.Failure(
                description: "the observer delivered \(change.results.count) rows, \(changes.updated.count) updated, "
                    + "\(changes.inserted.count) inserted, \(changes.deleted.count) deleted, "
                    + "\(changes.moved.count) moved")
        }
        return (end - start, end - committed)
    }
}

/// FetchKit's side of the observed update case: `update(_:where:set:)` adding 1 to the amount
/// of one region's 100,000 sales, timed from the commit (the persist's return) to the delivery:
/// the observation's own work.
func oursObservedUpdateSide(_ sales: @escaping () throws -> ObservedSales) -> Side {
    Side(name: "FetchKit update(where:set:), commit to delivery") {
        try sales().timeUntilDelivery(updateRegion).afterCommit
    }
}

/// The same update, timed from the start of the persist to the delivery: the statement, the
/// commit and the observation.
func oursObservedUpdateWholeSide(_ sales: @escaping () throws -> ObservedSales) -> Side {
    Side(name: "the same, from the start of the persist to the delivery") {
        try sales().timeUntilDelivery(updateRegion).whole
    }
}

/// Adds 1 to the amount of the updated region's sales, checking how many changed.
private func updateRegion(_ tx: ObjectTransaction) throws {
    let changed = try tx.update(
        Query<BenchSale>(where: BenchSale.region == saleUpdatedRegion), set: [BenchSale.amount += 1])
    guard changed == saleRows / 10 else {
        throw RawSQLite.Failure(description: "the update changed \(changed)")
    }
}

/// The same update by filter on a copy of the store that nobody observes, timed to its commit:
/// what the statement and the commit cost without observation.
func unobservedUpdateSide(_ files: @escaping () throws -> SaleFiles) -> Side {
    let store = lazily { try ObjectStore(at: URL(fileURLWithPath: files().unobservedPath), entities: [BenchSale.self]) }
    return Side(name: "the same update with no observer, to its commit") {
        let store = try store()
        var changed = 0
        let duration = try time {
            changed = try store.context.persistAndWait { tx in
                try tx.update(
                    Query<BenchSale>(where: BenchSale.region == saleUpdatedRegion), set: [BenchSale.amount += 1])
            }
        }
        guard changed == saleRows / 10 else { throw RawSQLite.Failure(description: "the update changed \(changed)") }
        return duration
    }
}

/// The same change in raw C on the unobserved copy: one `UPDATE … SET amount = amount + ? WHERE
/// region = ?` in its own transaction, timed to its commit (the floor for the statement and commit;
/// FetchKit's update also checks first that no amount would leave its type's range).
func rawUpdateSide(_ files: @escaping () throws -> SaleFiles) -> Side {
    let db = lazily { try RawSQLite(path: files().unobservedPath) }
    let statement = lazily {
        try db().prepare("UPDATE \"sales\" SET \"amount\" = \"amount\" + ? WHERE \"region\" = ?")
    }
    return Side(name: "raw C, the same UPDATE on the unobserved copy, to its commit") {
        let (db, statement) = (try db(), try statement())
        var changed: Int32 = 0
        let duration = try time {
            try db.execute("BEGIN IMMEDIATE")
            sqlite3_bind_int64(statement, 1, 1)
            sqlite3_bind_int64(statement, 2, Int64(saleUpdatedRegion))
            guard sqlite3_step(statement) == SQLITE_DONE else {
                throw RawSQLite.Failure(description: String(cString: sqlite3_errmsg(db.handle)))
            }
            sqlite3_reset(statement)
            changed = sqlite3_changes(db.handle)
            try db.execute("COMMIT")
        }
        guard changed == saleRows / 10 else { throw RawSQLite.Failure(description: "raw update changed \(changed)") }
        return duration
    }
}

/// What the same change took before updates by filter: fetch the region's sales, add 1 to each
/// amount and update them one by one in one persist, timed to the observer's delivery.
func fetchEditUpdateSide(_ sales: @escaping () throws -> ObservedSales) -> Side {
    Side(name: "fetch, edit and update each row (observed), start of the persist to delivery") {
        try sales().timeUntilDelivery { tx in
            let matching = try tx.fetch(Query<BenchSale>(where: BenchSale.region == saleUpdatedRegion))
            guard matching.count == saleRows / 10 else {
                throw RawSQLite.Failure(description: "the fetch read \(matching.count) rows")
            }
            for var sale in matching {
                sale.amount += 1
                try tx.update(sale)
            }
        }.whole
    }
}
