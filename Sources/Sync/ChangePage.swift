public import Persistence

/// One page of changes, as a collection's page reader returns it.
public struct ChangePage<Entity: StoredEntity>: Sendable {
    /// Records created or changed on the server.
    public var records: [Entity]
    /// Identities of records the server deleted (tombstones: a deleted flag, `@removed`,
    /// `status: cancelled`, `deleted: true`).
    public var deleted: [Entity.ID]
    /// Whether another page follows in this run.
    public var hasMore: Bool
    /// The cursor after this page, for ``CursorKind/token`` (the next page's token, or on the
    /// last page the token of the next run). Keyset and snapshot cursors are the mirror's own:
    /// leave it `nil`.
    public var cursor: SyncCursor?
    /// Stores the rows the records refer to (their authors, their places: what the API sends
    /// inside each record), in the page's transaction before the records, so a record never
    /// lands without them and a kill keeps both or neither; `nil` when there are none.
    ///
    /// ```swift
    /// ChangePage(records: photos, hasMore: false) { tx in
    ///     for owner in owners { try tx.upsert(owner) }
    /// }
    /// ```
    public var storingRelated: (@Sendable (ObjectTransaction) throws -> Void)?

    /// A page.
    ///
    /// - Parameters:
    ///   - records: the created or changed records.
    ///   - deleted: the identities of deleted records.
    ///   - hasMore: whether another page follows.
    ///   - cursor: the cursor after this page, for token cursors.
    ///   - storingRelated: stores the rows the records refer to, before them in the page's
    ///     transaction, or `nil`.
    public init(
        records: [Entity], deleted: [Entity.ID] = [], hasMore: Bool, cursor: SyncCursor? = nil,
        storingRelated: (@Sendable (ObjectTransaction) throws -> Void)? = nil
    ) {
        self.records = records
        self.deleted = deleted
        self.hasMore = hasMore
        self.cursor = cursor
        self.storingRelated = storingRelated
    }
}
