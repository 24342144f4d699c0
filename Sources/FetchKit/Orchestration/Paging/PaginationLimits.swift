/// Where a paginator stops at the latest, whatever the pages say.
public struct PaginationLimits: Sendable, Hashable {
    /// The most pages to request (the book lab's `MAX_REQUESTS = 10`), or `nil` for no limit.
    public var maximumPages: Int?
    /// The most items to deliver, or `nil` for no limit. The page that reaches it is cut to fit.
    public var maximumItems: Int?
    /// Whether a page's reported ``Page/totalItems`` ends the run once the items received reach it.
    ///
    /// On by default. Only the latest page's total counts, and never against a short page:
    /// Google Books reports 811 on the first page of a search and 60 on the second.
    public var stopsAtReportedTotal: Bool

    /// No limit; stop when the pages say so.
    public static let none = PaginationLimits()

    /// Creates limits.
    ///
    /// - Parameters:
    ///   - maximumPages: the most pages to request, or `nil`.
    ///   - maximumItems: the most items to deliver, or `nil`.
    ///   - stopsAtReportedTotal: whether a reported total item count ends the run when reached.
    public init(maximumPages: Int? = nil, maximumItems: Int? = nil, stopsAtReportedTotal: Bool = true) {
        self.maximumPages = maximumPages
        self.maximumItems = maximumItems
        self.stopsAtReportedTotal = stopsAtReportedTotal
    }
}
