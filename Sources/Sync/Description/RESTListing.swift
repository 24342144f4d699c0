/// The parameter and field names of a plain REST list (``ChangeFeed/rest(at:version:pageSize:listing:)``)
/// or a REST feed paged by tokens (``ChangeFeed/tokens(at:version:pageSize:listing:)``), when the
/// API does not use the defaults:
///
/// ```swift
/// RESTListing(after: "since", items: "data.notes", deleted: "removed")
/// ```
public struct RESTListing: Sendable, Hashable {
    /// The query parameter of the last item's timestamp (`after`).
    public var after: String
    /// The query parameter of the last item's identity (`afterID`).
    public var afterID: String
    /// The query parameter of the page size (`limit`).
    public var limit: String
    /// The field, or path, of the page's items (`items`); an answer that is an array is the items.
    public var items: String
    /// The field, or path, that says whether another page follows (`hasMore`); without it a full
    /// page means another may follow.
    public var hasMore: String
    /// The field that marks an item as a tombstone when `true` (`deleted`).
    public var deleted: String
    /// The field of an item's identity, read from a tombstone (`id`).
    public var id: String
    /// The field of an item's timestamp, read from a tombstone (`updated`).
    public var version: String
    /// The query parameter of a token feed's token (`since`).
    public var token: String
    /// The field of a token feed's next token (`next`).
    public var next: String

    /// Names of a listing; each defaults to the name in parentheses on its property.
    ///
    /// - Parameters:
    ///   - after: the query parameter of the last item's timestamp.
    ///   - afterID: the query parameter of the last item's identity.
    ///   - limit: the query parameter of the page size.
    ///   - items: the field of the page's items.
    ///   - hasMore: the field that says whether another page follows.
    ///   - deleted: the field that marks a tombstone.
    ///   - id: the field of a tombstone's identity.
    ///   - version: the field of a tombstone's timestamp.
    ///   - token: the query parameter of a token feed's token.
    ///   - next: the field of a token feed's next token.
    public init(
        after: String = "after", afterID: String = "afterID", limit: String = "limit", items: String = "items",
        hasMore: String = "hasMore", deleted: String = "deleted", id: String = "id", version: String = "updated",
        token: String = "since", next: String = "next"
    ) {
        self.token = token
        self.next = next
        self.after = after
        self.afterID = afterID
        self.limit = limit
        self.items = items
        self.hasMore = hasMore
        self.deleted = deleted
        self.id = id
        self.version = version
    }
}
