/// What a whole paginated run delivered, and why it stopped.
///
/// A run that fails or is cancelled part way keeps everything delivered before that.
public struct PaginationSummary<Item: Sendable>: Sendable {
    /// Every item delivered, in page order.
    public var items: [Item]
    /// How many pages were delivered.
    public var pageCount: Int
    /// Why the run stopped.
    public var stop: PaginationStop
    /// The error of the page that failed, when ``stop`` is ``PaginationStop/failed`` (or the
    /// cancellation error a cancelled load threw).
    public var error: (any Error)?

    /// Creates a summary.
    ///
    /// - Parameters:
    ///   - items: every item delivered.
    ///   - pageCount: how many pages were delivered.
    ///   - stop: why the run stopped.
    ///   - error: the error that ended the run, if any.
    init(items: [Item], pageCount: Int, stop: PaginationStop, error: (any Error)? = nil) {
        self.items = items
        self.pageCount = pageCount
        self.stop = stop
        self.error = error
    }
}
