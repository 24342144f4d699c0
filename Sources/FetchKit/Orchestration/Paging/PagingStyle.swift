/// How an API pages its results, which says what each ``PageRequest`` carries.
public enum PagingStyle: Sendable, Hashable {
    /// Pages addressed by the index of their first item and a page size, such as Google
    /// Books' `startIndex` and `maxResults`. A page with fewer than `pageSize` items is the
    /// last one.
    ///
    /// - Parameters:
    ///   - pageSize: the items asked for per page.
    ///   - firstIndex: the index of the first item (0 for Google Books).
    case offset(pageSize: Int, firstIndex: Int = 0)
    /// Pages addressed by number, such as TMDB's `page` with `total_pages` or Flickr's
    /// `page` with `pages`. The page whose number reaches the reported page count is the last.
    ///
    /// - Parameters:
    ///   - firstPage: the number of the first page (1 for TMDB and Flickr).
    ///   - pageSize: the items per page, when the API sends full pages of a known size; a
    ///     shorter page is then the last one.
    case numbered(firstPage: Int = 1, pageSize: Int? = nil)
    /// Pages that each name the next one, by a cursor or a next-page URL. The page without
    /// a next one is the last.
    ///
    /// - Parameter first: the cursor of the first page, or `nil` to ask for the first page
    ///   without one.
    case cursor(first: String? = nil)
}
