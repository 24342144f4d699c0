public import Persistence

/// The records a query selects, each with its sync state, read in one transaction: a
/// `FetchRequest`, so it runs in `fetch(_:)` and observes as any read
/// (`StoreObservation.value(tracking:read:)`, tracking the entity and ``PendingWrite``).
///
/// ```swift
/// let books = try tx.fetch(mirror.records(Query<Book>(sortedBy: [Book.title.ascending()])))
/// for book in books where book.state == .rejected {
///     print(book.record.title, "was refused:", book.writes[0].reason ?? "")
/// }
/// ```
///
/// A record deleted here whose delete is not yet acknowledged has no row: it is in the outbox
/// only (``SyncedCollection/pendingWrites``).
public struct SyncedRecords<Entity: StoredEntity>: FetchRequest {
    let query: Query<Entity>
    let collection: String

    /// Reads the query's rows, then their writes: in one `IN` query for up to 500 rows, else
    /// the collection's whole outbox.
    public var plan: FetchPlan<[SyncedRecord<Entity>]> {
        FetchPlan { [query, collection] tx throws(PersistenceError) in
            let rows = try tx.fetch(query)
            guard !rows.isEmpty else { return [] }
            let texts = rows.map { $0.id.databaseValue.identityText }
            let writes = try OutboxTable.writes(of: rows.count <= 500 ? texts : nil, in: collection, tx)
            return zip(rows, texts).map { row, text in SyncedRecord(record: row, writes: writes[text] ?? []) }
        }
    }
}
