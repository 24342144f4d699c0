public import Foundation

/// What the paginator asks a page loader for: which page, by every addressing scheme.
///
/// A loader reads the fields its API needs: ``offset`` and ``pageSize`` for offset pages,
/// ``pageNumber`` for numbered pages, ``cursor`` for cursor pages.
public struct PageRequest: Sendable, Hashable {
    /// The position of this request in the run: 0 for the first page.
    public var index: Int
    /// The index of the page's first item: the first index plus the items received so far.
    public var offset: Int
    /// The page number: the first page's number plus ``index``.
    public var pageNumber: Int
    /// The items asked for per page, when the style has a page size.
    public var pageSize: Int?
    /// The cursor or next-page URL the previous page named (or the style's first cursor).
    public var cursor: String?

    /// Creates a page request.
    ///
    /// - Parameters:
    ///   - index: the position of this request in the run, from 0.
    ///   - offset: the index of the page's first item.
    ///   - pageNumber: the page number.
    ///   - pageSize: the items asked for per page, if known.
    ///   - cursor: the cursor naming this page, if any.
    init(index: Int, offset: Int, pageNumber: Int, pageSize: Int?, cursor: String?) {
        self.index = index
        self.offset = offset
        self.pageNumber = pageNumber
        self.pageSize = pageSize
        self.cursor = cursor
    }

    /// Query items for an offset-paged API, such as Google Books'.
    ///
    /// For example, for Google Books, `request.offsetQueryItems(offsetName: "startIndex",
    /// sizeName: "maxResults")` gives `startIndex=30&maxResults=30` for the second page of 30.
    ///
    /// - Parameters:
    ///   - offsetName: the name of the start-index parameter.
    ///   - sizeName: the name of the page-size parameter (left out when there is no size).
    /// - Returns: the two query items.
    public func offsetQueryItems(offsetName: String, sizeName: String) -> [URLQueryItem] {
        var items = [URLQueryItem(name: offsetName, value: String(offset))]
        if let pageSize { items.append(URLQueryItem(name: sizeName, value: String(pageSize))) }
        return items
    }

    /// The query item for a numbered-page API, such as TMDB's or Flickr's `page`.
    ///
    /// - Parameter name: the name of the page parameter.
    /// - Returns: the query item.
    public func pageQueryItem(name: String = "page") -> URLQueryItem {
        URLQueryItem(name: name, value: String(pageNumber))
    }
}
