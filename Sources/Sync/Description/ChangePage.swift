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
    /// The cursor after this page, of the collection's ``CursorKind``:
    ///
    /// - ``CursorKind/token``: required; the next page's token, or on the last page the token
    ///   the next run starts from.
    /// - ``CursorKind/keyset(overlap:)``: optional; the position of the page's last item, record
    ///   or tombstone (``SyncCursor/keyset(version:id:)``), so that a page of tombstones moves the
    ///   cursor too. `nil`: the collection takes the last record's version and identity.
    /// - ``CursorKind/snapshot``: not read; the page numbers are the collection's own.
    ///
    /// A token for a keyset collection, or a keyset position for a token collection, fails the
    /// page with ``SyncError/Code-swift.struct/undecodablePage``.
    public var cursor: SyncCursor?
    /// How many records and tombstones the listing holds from this page on, this page's included,
    /// when the server says (PocketBase's `totalItems` of the filtered listing): the estimate of
    /// ``SyncProgress/expectedRecords``. `nil` when it does not.
    public var remaining: Int?
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
    ///   - cursor: the cursor after this page (see ``cursor``).
    ///   - remaining: the records the listing holds from this page on, when the server says (see
    ///     ``remaining``).
    ///   - storingRelated: stores the rows the records refer to, before them in the page's
    ///     transaction, or `nil`.
    public init(
        records: [Entity], deleted: [Entity.ID] = [], hasMore: Bool, cursor: SyncCursor? = nil, remaining: Int? = nil,
        storingRelated: (@Sendable (ObjectTransaction) throws -> Void)? = nil
    ) {
        self.remaining = remaining
        self.records = records
        self.deleted = deleted
        self.hasMore = hasMore
        self.cursor = cursor
        self.storingRelated = storingRelated
    }
}
