/// Why a paginator stopped requesting pages.
public enum PaginationStop: Sendable, Hashable {
    /// A page came back with no items.
    case emptyPage
    /// A page came back with fewer items than the page size.
    case shortPage
    /// The page number reached the reported page count.
    case lastPage
    /// The items received reached the latest page's reported total.
    case totalReached
    /// A cursor page named no next page, or named the page it came from again.
    case noNextPage
    /// ``PaginationLimits/maximumPages`` pages were requested.
    case pageLimit
    /// ``PaginationLimits/maximumItems`` items were delivered.
    case itemLimit
    /// The run was cancelled (its task, its handle, or a page load that failed with a
    /// cancellation error such as a cancelled ``FetchError``); no request was sent after that.
    case cancelled
    /// A page failed to load; the run ended with its error.
    case failed
}
