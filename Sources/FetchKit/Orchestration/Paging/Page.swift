/// One page as the API returned it: its items and what it says about the rest.
///
/// A page loader builds it from the decoded response; the paginator reads the counts to
/// decide whether to ask for another page, and delivers the page as it is.
public struct Page<Item: Sendable>: Sendable {
    /// The page's items.
    public var items: [Item]
    /// The total number of items the API reported with this page, if it reports one.
    ///
    /// Only this page's figure is used: APIs such as Google Books report a different total
    /// on every page, and a short page ends the run whatever the total says.
    public var totalItems: Int?
    /// The number of pages the API reported (TMDB's `total_pages`, Flickr's `pages`).
    public var totalPages: Int?
    /// The cursor or URL of the next page, for cursor paging; `nil` or empty on the last.
    public var next: String?

    /// Creates a page.
    ///
    /// - Parameters:
    ///   - items: the page's items.
    ///   - totalItems: the total item count the API reported, if any.
    ///   - totalPages: the page count the API reported, if any.
    ///   - next: the next page's cursor or URL, for cursor paging.
    public init(items: [Item], totalItems: Int? = nil, totalPages: Int? = nil, next: String? = nil) {
        self.items = items
        self.totalItems = totalItems
        self.totalPages = totalPages
        self.next = next
    }
}
