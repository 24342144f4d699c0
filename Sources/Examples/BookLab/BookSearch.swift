import ExampleSupport
import FetchKit
import Foundation

/// A search: pages of 40 requested one after another through FetchKit's paginator, each page
/// printed and remembered as it arrives.
struct BookSearch: Sendable {
    /// Google Books' largest page.
    static let pageSize = 40
    /// The most pages one search asks for.
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
    /// Ctrl-C cancels the program's task, and with it the search: the paginator sends no
    /// further request, the page in flight is cancelled, and every page stored before stays
    /// numbered (the program says so in its interruption line).
    ///
    /// - Throws: ``ExampleFailure`` when a page cannot be fetched or stored; the pages before
    ///   it stay numbered and remembered.
    func run() async throws {
        Interrupts.keep(Self.kept(pageCount: 0, received: 0))
        try await runPages()
    }

    /// What is kept after `pageCount` pages, for an interruption or a failure.
    private static func kept(pageCount: Int, received: Int) -> String {
        pageCount == 0
            ? "the last search's results are kept"
            : "the \(received) results of pages 1 to \(pageCount) are numbered and can be added"
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
            Interrupts.keep(Self.kept(pageCount: pageCount, received: received))
            print("page \(pageCount): \(results.count) book\(results.count == 1 ? "" : "s") (\(received) so far)")
            for result in results {
                print("\(String(result.id).leftPadded(to: 5)). \(result.line)")
            }
        }
        print(summary(received: received, stop: iterator.stop, reportedTotal: reportedTotal))
    }

    /// What to report when a page fails after `pageCount` pages (an interruption is told by
    /// the program, from what ``Interrupts/keep(_:)`` was last given).
    private func failure(_ error: any Error, afterPage pageCount: Int, received: Int) -> any Error {
        if Task.isCancelled || error is CancellationError || FetchError.Code.cancelled ~= error {
            return CancellationError()
        }
        let kept = Self.kept(pageCount: pageCount, received: received)
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
