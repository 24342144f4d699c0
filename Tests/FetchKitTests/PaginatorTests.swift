import Decoding
import Foundation
import Locking
import TestSupport
import Testing

@testable import FetchKit

@Suite struct PaginatorTests {
    struct Boom: Error {}

    struct Volumes: Decodable {
        struct Volume: Decodable { let id: String }
        let totalItems: Int
        let items: [Volume]?
    }

    /// Serves recorded Google Books pages by start index and records every request.
    final class BooksServer: Sendable {
        let pages: [Int: String]
        let requests = Locked([PageRequest]())

        init(pages: [Int: String]) {
            self.pages = pages
        }

        func load(_ request: PageRequest) throws -> Page<String> {
            requests.withLock { $0.append(request) }
            let file = pages[request.offset] ?? "googlebooks/volumes_zero_results.json"
            let volumes = try JSONDecoder().decode(Volumes.self, from: Fixtures.data(file))
            return Page(items: (volumes.items ?? []).map(\.id), totalItems: volumes.totalItems)
        }

        var offsets: [Int] { requests.withLock { $0.map(\.offset) } }
    }

    @Test func googleBooksStopsWhenTheSecondPagesTotalIsReached() async {
        let server = BooksServer(pages: [
            0: "googlebooks/volumes_dawn_page1_30_items.json", 30: "googlebooks/volumes_dawn_page2_30_items.json",
        ])
        let summary = await Paginator(style: .offset(pageSize: 30)) { try server.load($0) }.collect()
        // Page 1 says 811 items, page 2 says 60: the latest total is reached after 60 items.
        #expect(summary.stop == .totalReached)
        #expect(summary.items.count == 60)
        #expect(server.offsets == [0, 30])
        #expect(server.requests.withLock { $0.map(\.pageSize) } == [30, 30])
    }

    @Test func aShortPageEndsTheRunWhateverTheTotalSays() async {
        let server = BooksServer(pages: [
            0: "googlebooks/volumes_dawn_page1_30_items.json", 30: "googlebooks/volumes_tolstoy_10_items_2015.json",
        ])
        let summary = await Paginator(style: .offset(pageSize: 30)) { try server.load($0) }.collect()
        // The short page reports 454 items in total; it still ends the run.
        #expect(summary.stop == .shortPage)
        #expect(summary.items.count == 40)
        #expect(server.offsets == [0, 30])
    }

    @Test func anEmptyPageEndsTheRunWhenTotalsAreIgnored() async {
        let server = BooksServer(pages: [
            0: "googlebooks/volumes_dawn_page1_30_items.json", 30: "googlebooks/volumes_dawn_page2_30_items.json",
        ])
        let paginator = Paginator(style: .offset(pageSize: 30), limits: .init(stopsAtReportedTotal: false)) {
            try server.load($0)
        }
        let summary = await paginator.collect()
        #expect(summary.stop == .emptyPage)
        #expect(summary.pageCount == 3)
        #expect(server.offsets == [0, 30, 60])
    }

    @Test func thePageLimitCapsRequestsLikeTheSeedsTenRequests() async {
        let requests = Locked(0)
        let paginator = Paginator(style: .offset(pageSize: 40), limits: .init(maximumPages: 10)) { request in
            requests.withLock { $0 += 1 }
            return Page(items: Array(request.offset..<request.offset + 40), totalItems: 5_000)
        }
        let summary = await paginator.collect()
        #expect(summary.stop == .pageLimit)
        #expect(requests.withLock { $0 } == 10)
        #expect(summary.items.count == 400)
        #expect(summary.items.last == 399)
    }

    @Test func theItemLimitCutsTheLastPage() async {
        let paginator = Paginator(style: .offset(pageSize: 40), limits: .init(maximumItems: 100)) { request in
            Page(items: Array(request.offset..<request.offset + 40))
        }
        let summary = await paginator.collect()
        #expect(summary.stop == .itemLimit)
        #expect(summary.items == Array(0..<100))
        #expect(summary.pageCount == 3)
    }

    @Test func numberedPagesStopAtTheReportedLastPage() async throws {
        let pageNumbers = Locked([Int]())
        let paginator = Paginator(style: .numbered()) { request in
            pageNumbers.withLock { $0.append(request.pageNumber) }
            return Page(items: ["p\(request.pageNumber)"], totalPages: 3)
        }
        var delivered: [[String]] = []
        for try await page in paginator { delivered.append(page.items) }
        #expect(delivered == [["p1"], ["p2"], ["p3"]])
        #expect(pageNumbers.withLock { $0 } == [1, 2, 3])
    }

    @Test func tmdbsOnlyPageIsTheLastPage() async throws {
        struct Search: Decodable {
            struct Movie: Decodable { let id: Int }
            let page: Int
            let total_pages: Int
            let results: [Movie]
        }
        let requests = Locked(0)
        let paginator = Paginator(style: .numbered(firstPage: 1)) { _ in
            requests.withLock { $0 += 1 }
            let search = try JSONDecoder().decode(
                Search.self, from: Fixtures.data("tmdb/search_movie_tarantino_2017.json"))
            return Page(items: search.results.map(\.id), totalPages: search.total_pages)
        }
        let summary = await paginator.collect()
        #expect(summary.stop == .lastPage)
        #expect(summary.items.count == 8)
        #expect(requests.withLock { $0 } == 1)
    }

    /// Flickr sends its page counts as strings in some responses and as numbers in others:
    /// Decoding's `@LosslessValue` reads both, for a numbered paging style.
    @Test func flickrPageCountsDecodeFromStringsAndNumbers() throws {
        struct Response: Decodable {
            struct Photos: Decodable {
                @LosslessValue var page: Int
                @LosslessValue var pages: Int
                @LosslessValue var total: Int
            }
            let photos: Photos
        }
        let strings = try PathDecoder().decode(
            Response.self, from: Fixtures.data("flickr/photos_search_no_geo_2014.json"))
        #expect(strings.photos.pages == 160)
        #expect(strings.photos.total == 799)
        let numbers = try PathDecoder().decode(
            Response.self, from: Fixtures.data("flickr/photos_search_cat_description_ownername_2019.json"))
        #expect(numbers.photos.pages == 12)
        #expect(numbers.photos.page == 1)
        #expect(throws: DecodingFailure.self) {
            try PathDecoder().decode([LosslessValue<Int>].self, from: Data(#"["many"]"#.utf8))
        }
    }

    @Test func cursorPagesFollowNextUntilThereIsNone() async {
        let cursors = Locked([String?]())
        let next: [String?: String] = [nil: "b", "b": "c"]
        let paginator = Paginator(style: .cursor()) { request in
            cursors.withLock { $0.append(request.cursor) }
            return Page(items: [request.cursor ?? "a"], next: next[request.cursor])
        }
        let summary = await paginator.collect()
        #expect(summary.stop == .noNextPage)
        #expect(summary.items == ["a", "b", "c"])
        #expect(cursors.withLock { $0 } == [nil, "b", "c"])
    }

    @Test func aCursorThatRepeatsItselfEndsTheRun() async {
        let requests = Locked(0)
        let paginator = Paginator(style: .cursor(first: "same")) { _ in
            requests.withLock { $0 += 1 }
            return Page(items: [1], next: "same")
        }
        let summary = await paginator.collect()
        #expect(summary.stop == .noNextPage)
        #expect(requests.withLock { $0 } == 1)
    }

    @Test func aFailingMiddlePageEndsTheSequenceWithItsErrorAndKeepsEarlierPages() async {
        let requests = Locked([Int]())
        let paginator = Paginator(style: .numbered(pageSize: 2)) { request in
            requests.withLock { $0.append(request.pageNumber) }
            if request.pageNumber == 2 { throw Boom() }
            return Page(items: [request.pageNumber * 10, request.pageNumber * 10 + 1], totalPages: 5)
        }
        var delivered: [Int] = []
        await #expect(throws: Boom.self) {
            for try await page in paginator { delivered.append(contentsOf: page.items) }
        }
        #expect(delivered == [10, 11])

        let summary = await paginator.collect()
        #expect(summary.stop == .failed)
        #expect(summary.error is Boom)
        #expect(summary.items == [10, 11])
        #expect(requests.withLock { $0 } == [1, 2, 1, 2])
    }

    @Test func cancellingTheHandleStopsTheRunAndSendsNoFurtherRequest() async throws {
        let requests = Locked([Int]())
        let pages = Arrival<[Int]>()
        let done = Arrival<PaginationSummary<Int>>()
        let paginator = Paginator(style: .offset(pageSize: 2)) { request in
            requests.withLock { $0.append(request.offset) }
            if request.offset >= 2 {
                try await Task.sleep(for: Patience.beyondTheTest)  // Until cancelled.
            }
            return Page(items: [request.offset, request.offset + 1])
        }
        let handle = paginator.collect(onPage: { pages.fulfill($0.items) }, completion: { done.fulfill($0) })
        _ = try await pages.value("the first page")
        try await waitUntil("the second request") { requests.withLock { $0.count } == 2 }
        handle.cancel()
        let summary = try await done.value("the cancelled run's summary")
        #expect(summary.stop == .cancelled)
        #expect(summary.items == [0, 1])
        #expect(pages.all == [[0, 1]])
        #expect(requests.withLock { $0 } == [0, 2])
        #expect(done.count == 1)
    }

    @Test func aCancelledTaskSendsNoRequest() async {
        let requests = Locked(0)
        let paginator = Paginator(style: .offset(pageSize: 2)) { request in
            requests.withLock { $0 += 1 }
            return Page(items: [request.offset, request.offset + 1])
        }
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await paginator.collect()
        }
        let summary = await task.value
        #expect(summary.stop == .cancelled)
        #expect(summary.error is CancellationError)
        #expect(requests.withLock { $0 } == 0)
    }
}
