/// The stopping rules of a paginated run, shared by the sequence and callback forms.
struct PaginationState: Sendable {
    let style: PagingStyle
    let limits: PaginationLimits
    private(set) var index = 0
    private(set) var itemsReceived = 0
    private(set) var itemsDelivered = 0
    private(set) var cursor: String?
    private(set) var stop: PaginationStop?

    init(style: PagingStyle, limits: PaginationLimits) {
        self.style = style
        self.limits = limits
        if case .cursor(let first) = style { cursor = first }
        if let maximumPages = limits.maximumPages, maximumPages <= 0 { stop = .pageLimit }
        if let maximumItems = limits.maximumItems, maximumItems <= 0 { stop = .itemLimit }
    }

    /// The next request, or `nil` when the run has stopped.
    func nextRequest() -> PageRequest? {
        guard stop == nil else { return nil }
        switch style {
        case .offset(let pageSize, let firstIndex):
            return PageRequest(
                index: index, offset: firstIndex + itemsReceived, pageNumber: index + 1, pageSize: pageSize,
                cursor: nil)
        case .numbered(let firstPage, let pageSize):
            return PageRequest(
                index: index, offset: itemsReceived, pageNumber: firstPage + index, pageSize: pageSize, cursor: nil)
        case .cursor:
            return PageRequest(
                index: index, offset: itemsReceived, pageNumber: index + 1, pageSize: nil, cursor: cursor)
        }
    }

    /// Records a page that arrived for `request` and returns the page to deliver (cut to
    /// the item limit), deciding whether another page follows.
    mutating func record<Item>(_ page: Page<Item>, for request: PageRequest) -> Page<Item> {
        var page = page
        let received = page.items.count
        itemsReceived += received
        index += 1

        if let maximumItems = limits.maximumItems, itemsDelivered + received >= maximumItems {
            page.items = Array(page.items.prefix(maximumItems - itemsDelivered))
            itemsDelivered += page.items.count
            stop = .itemLimit
            return page
        }
        itemsDelivered += received
        stop = stopReason(after: page, receivedCount: received, request: request)
        return page
    }

    mutating func end(_ reason: PaginationStop) {
        stop = reason
    }

    private mutating func stopReason<Item>(
        after page: Page<Item>, receivedCount: Int, request: PageRequest
    )
        -> PaginationStop?
    {
        if receivedCount == 0 { return .emptyPage }
        if let pageSize = request.pageSize, receivedCount < pageSize { return .shortPage }
        switch style {
        case .numbered:
            if let totalPages = page.totalPages, request.pageNumber >= totalPages { return .lastPage }
        case .cursor:
            guard let next = page.next, !next.isEmpty, next != request.cursor else { return .noNextPage }
            cursor = next
        case .offset:
            break
        }
        if limits.stopsAtReportedTotal, let total = page.totalItems, itemsReceived >= total { return .totalReached }
        if let maximumPages = limits.maximumPages, index >= maximumPages { return .pageLimit }
        return nil
    }
}
