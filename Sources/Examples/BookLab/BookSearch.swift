import ExampleSupport
import FetchKit
import Foundation

/// A search: pages of 40 requested one after another through FetchKit's paginator, each page
/// printed and remembered as it arrives.
struct BookSearch: Sendable {
    /// Google Books' largest page.
    static let pageSize = 40
    /// The seed's `MAX_REQUESTS`.
    static let maximumPages = 10

    let words: String
    let source: BookSource
    let library: Library

    /// Runs the search, printing a progress line and the numbered results of each page.
    ///
    /// The run stops at the first short or empty page, or after ten pages. The reported
    /// `totalItems` never ends it: Google Books' total is an estimate that changes from page to
    /// page, so only a page that comes back short says the results are exhausted.
    ///
    /// Ctrl-C cancels the search's task: the paginator sends no further request, the page in
    /// flight is cancelled, and every page stored before stays numbered.
    ///
    /// - Throws: ``ExampleFailure`` when a page cannot be fetched or stored, or the search is
    ///   interrupted; the pages before it stay numbered and remembered.
    func run() async throws {
        // Ctrl-C is caught by a dispatch signal source (SIGINT ignored, so it no longer kills),
        // armed before the search starts so no early Ctrl-C is lost.
        let cancel = SearchCancellation()
        let interrupt = await Interrupts.listen(on: DispatchQueue(label: "booklab.interrupt")) { cancel.cancel() }
        let search = Task { try await runPages() }
        cancel.attach(search)
        defer {
            interrupt.cancel()
            signal(SIGINT, SIG_DFL)
        }
        try await search.value
    }

    private func runPages() async throws {
        print("Searching \(source.name) for \"\(words)\", \(Self.pageSize) a page…")
        let base = source.baseURL
        let words = words
        let pages = source.client.pages(
            style: .offset(pageSize: Self.pageSize),
            limits: PaginationLimits(maximumPages: Self.maximumPages, stopsAtReportedTotal: false),
            endpoint: { GoogleBooks(baseURL: base, route: .search(words: words, page: $0)) },
            extracting: .decode(VolumePage.self)
        ) { page in
            Page(items: page.volumes, totalItems: page.totalItems)
        }
        var iterator = pages.makeAsyncIterator()
        var received = 0
        var pageCount = 0
        var reportedTotal: Int?
        while true {
            let results: [SearchResult]
            do {
                guard let page = try await iterator.next() else { break }
                reportedTotal = page.totalItems
                results = page.items.enumerated().map { offset, volume in
                    SearchResult(number: received + offset + 1, query: words, volume: volume)
                }
                try await library.remember(results, replacing: pageCount == 0)
            } catch {
                throw failure(error, afterPage: pageCount, received: received)
            }
            pageCount += 1
            received += results.count
            print("page \(pageCount): \(results.count) books (\(received) so far)")
            for result in results {
                print("\(String(result.id).leftPadded(to: 5)). \(result.line)")
            }
        }
        print(summary(received: received, stop: iterator.stop, reportedTotal: reportedTotal))
    }

    /// What to report when a page fails, or the search is interrupted, after `pageCount` pages.
    private func failure(_ error: any Error, afterPage pageCount: Int, received: Int) -> ExampleFailure {
        let kept =
            pageCount == 0
            ? "the last search's results are kept"
            : "the \(received) results of pages 1 to \(pageCount) are numbered and can be added"
        if Task.isCancelled || error is CancellationError || FetchError.cancelled ~= error {
            return ExampleFailure("search interrupted; \(kept)")
        }
        let cause = error is FetchError ? source.failure(error).description : "cannot remember the results: \(error)"
        return ExampleFailure(pageCount == 0 ? cause : "the search stopped after page \(pageCount): \(cause) (\(kept))")
    }

    private func summary(received: Int, stop: PaginationStop?, reportedTotal: Int?) -> String {
        guard received > 0 else { return "No books found for \"\(words)\"." }
        let found = received == 1 ? "1 result" : "\(received) results"
        let why =
            stop == .pageLimit
            ? ", stopped at the \(Self.maximumPages)-page limit"
                + (reportedTotal.map { " (Google Books reports about \($0) matches)" } ?? "")
            : ""
        return "\(found) for \"\(words)\"\(why). Add one to your library with 'booklab add <n>'."
    }
}

extension String {
    /// The string with spaces in front, to `width` characters.
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}

/// Cancels the search's task on Ctrl-C, also when Ctrl-C came before the task existed.
///
/// `@unchecked Sendable`: `task` and `cancelled` are only touched while holding `lock`.
private final class SearchCancellation: @unchecked Sendable {
    private let lock = NSLock()
    private var task: Task<Void, any Error>?
    private var cancelled = false

    func attach(_ task: Task<Void, any Error>) {
        let cancelNow = lock.withLock {
            self.task = task
            return cancelled
        }
        if cancelNow { task.cancel() }
    }

    func cancel() {
        let task = lock.withLock {
            cancelled = true
            return self.task
        }
        task?.cancel()
    }
}
