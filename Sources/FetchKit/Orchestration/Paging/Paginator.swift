public import Dispatch
import Locking

/// Requests pages one after another and delivers each as it arrives, until a stopping rule.
///
/// A paginator is generic over a page loader, `(PageRequest) async throws -> Page<Item>`,
/// usually a fetch of one endpoint. It stops at the first of: an empty page, a page shorter
/// than the page size, the last page by the reported page count, the latest reported total
/// reached, a cursor page with no next page, or a limit in ``PaginationLimits``. A short page
/// always ends the run, whatever total the API reported.
///
/// Iterate it as an `AsyncSequence` of pages, for example Google Books' search:
///
/// ```swift
/// let pages = Paginator(style: .offset(pageSize: 40), limits: .init(maximumPages: 10)) { request in
///     let volumes = try await client.fetch(
///         Books.search(name, query: request.offsetQueryItems(offsetName: "startIndex", sizeName: "maxResults")), extracting: .decode(Volumes.self))
///     return Page(items: volumes.items, totalItems: volumes.totalItems)
/// }
/// for try await page in pages { show(page.items) }
/// ```
///
/// The sequence is cancelled with its task: no request is sent after cancellation and the
/// iteration throws `CancellationError` (or the loader's cancellation error, such as a
/// cancelled ``FetchError``, when a page was in flight). A page that fails ends the iteration with its error;
/// the pages delivered before it stay delivered. ``collect(isolation:onPage:completion:)`` is the
/// callback form, and ``collect(onPage:)`` gathers a whole run.
public struct Paginator<Item: Sendable>: AsyncSequence, Sendable {
    /// Each element is one page, in order.
    public typealias Element = Page<Item>

    /// How the API addresses its pages.
    public let style: PagingStyle
    /// Where the run stops at the latest.
    public let limits: PaginationLimits
    /// Where ``collect(isolation:onPage:completion:)`` runs its callbacks for a caller isolated
    /// to no actor; `nil` for a serial queue of each run's own. Callers on the main actor or
    /// another actor get their callbacks there, whatever this says.
    public let callbackQueue: DispatchQueue?
    private let loadPage: @Sendable (PageRequest) async throws -> Page<Item>

    /// Creates a paginator.
    ///
    /// - Parameters:
    ///   - style: how the API addresses its pages.
    ///   - limits: where the run stops at the latest; by default only the pages decide.
    ///   - callbackQueue: where the callback form's callbacks run for a caller isolated to no
    ///     actor; `nil` (the default) for a serial queue of each run's own.
    ///   - loadPage: loads one page; called once per page, never concurrently.
    public init(
        style: PagingStyle, limits: PaginationLimits = .none, callbackQueue: DispatchQueue? = nil,
        loadPage: @escaping @Sendable (PageRequest) async throws -> Page<Item>
    ) {
        self.style = style
        self.limits = limits
        self.callbackQueue = callbackQueue
        self.loadPage = loadPage
    }

    /// Creates the iterator that requests the pages.
    ///
    /// - Returns: a new iterator; each iterator runs the pagination from the first page.
    public func makeAsyncIterator() -> Iterator {
        Iterator(state: PaginationState(style: style, limits: limits), loadPage: loadPage)
    }

    /// Requests pages one after another as ``next()`` is called.
    public struct Iterator: AsyncIteratorProtocol {
        var state: PaginationState
        let loadPage: @Sendable (PageRequest) async throws -> Page<Item>
        private var finished = false

        init(state: PaginationState, loadPage: @escaping @Sendable (PageRequest) async throws -> Page<Item>) {
            self.state = state
            self.loadPage = loadPage
        }

        /// Loads and returns the next page, or `nil` once a stopping rule has ended the run.
        ///
        /// - Returns: the next page, or `nil` at the end.
        /// - Throws: `CancellationError` if the task was cancelled before the request, or the
        ///   page loader's error; after either, the iterator returns `nil`.
        public mutating func next() async throws -> Page<Item>? {
            guard !finished, let request = state.nextRequest() else { return nil }
            do {
                try Task.checkCancellation()
                let page = try await loadPage(request)
                return state.record(page, for: request)
            } catch {
                finished = true
                state.end(Task.isCancelled || isCancellation(error) ? .cancelled : .failed)
                throw error
            }
        }

        /// Why the run stopped, or `nil` while it goes on.
        public var stop: PaginationStop? { state.stop }
    }

    /// Runs the whole pagination and returns every item delivered and why it stopped.
    ///
    /// Never throws: a failing page or cancellation ends the run with the items so far and
    /// the error in the summary.
    ///
    /// - Parameter onPage: called with each page as it arrives, before the next is requested.
    /// - Returns: the items delivered, the page count and the stop reason.
    public func collect(onPage: (@Sendable (Page<Item>) -> Void)? = nil) async -> PaginationSummary<Item> {
        var iterator = makeAsyncIterator()
        var items: [Item] = []
        var pageCount = 0
        do {
            while let page = try await iterator.next() {
                pageCount += 1
                items.append(contentsOf: page.items)
                onPage?(page)
            }
            return PaginationSummary(items: items, pageCount: pageCount, stop: iterator.stop ?? .cancelled)
        } catch {
            return PaginationSummary(items: items, pageCount: pageCount, stop: iterator.stop ?? .failed, error: error)
        }
    }

    /// Runs the whole pagination, calling `onPage` for each page and `completion` once at the end.
    ///
    /// Both run in the caller's isolation, in order (every page before the completion): on the
    /// main actor from a `@MainActor` class, on an actor from its method, and, from code isolated
    /// to no actor, on ``callbackQueue`` (by default a serial queue of the run's own). Cancel
    /// through the returned handle; the
    /// completion still runs, once, with ``PaginationStop/cancelled``.
    ///
    /// - Parameters:
    ///   - isolation: where the callbacks run; the caller's isolation (leave it out).
    ///   - onPage: receives each page as it arrives.
    ///   - completion: receives the summary, exactly once.
    /// - Returns: a handle that cancels the run.
    @discardableResult
    public func collect(
        isolation: isolated (any Actor)? = #isolation,
        onPage: @escaping (Page<Item>) -> Void, completion: @escaping (PaginationSummary<Item>) -> Void
    ) -> RunHandle {
        collect(
            CallerIsolation(isolation: isolation, queue: callbackQueue ?? DispatchQueue(label: "FetchKit.Paginator")),
            onPage: onPage,
            completion: completion)
    }

    /// The callback forms' one body: the callbacks run where `caller` says.
    private func collect(
        _ caller: CallerIsolation, onPage: @escaping (Page<Item>) -> Void,
        completion: @escaping (PaginationSummary<Item>) -> Void
    ) -> RunHandle {
        let callbacks = caller.queue
        let onPage = caller.wrap(onPage)
        let completion = caller.wrap(completion)
        let paginator = self
        let task = Task<Void, Never> {
            let summary = await paginator.collect { page in callbacks.async { onPage(page) } }
            callbacks.async { completion(summary) }
        }
        return RunHandle(task: task)
    }
}
