import Decoding
import FetchKit
import FetchKitTesting
import Foundation
import Persistence
import TestSupport
import Testing

/// The "ours" side of the `FlowBookLab` article, piece by piece.
enum BookLabFlow {
    // MARK: 1. VolumeData and BookData → path keys

    struct BookData: Decodable, Sendable {
        enum CodingKeys: String, CodingKey {
            case id
            case title = "volumeInfo.title"
            case authors = "volumeInfo.authors"
            case publisher = "volumeInfo.publisher"
            case publicationDate = "volumeInfo.publishedDate"
            case bookDescription = "volumeInfo.description"
            case isbn13 = "volumeInfo.industryIdentifiers[type=ISBN_13].identifier"
            case imageURL = "volumeInfo.imageLinks.smallThumbnail"
        }

        var id: String
        var title: String
        @TransformedIfPresent<JoinedStrings> var authors: String?  // ["A", "B"] → "A, B"
        var publisher: String?
        var publicationDate: PartialDate?  // "1862", "2016-10" or "2016-10-14"
        var bookDescription: String?
        var isbn13: String?
        var imageURL: URL?
    }

    struct VolumeData: Decodable, Sendable {
        enum CodingKeys: String, CodingKey {
            case books = "items"
            case totalItems
        }

        @DefaultEmpty var books: [BookData]  // no "items" key: no match, an empty list
        var totalItems: Int?
    }

    // MARK: 2. URLComponents + MAX_REQUESTS → a paginator

    struct VolumeSearch: Endpoint {
        var baseURL = URL(string: "https://www.googleapis.com") ?? URL(fileURLWithPath: "/")
        var name: String
        var page: PageRequest

        var path: String { "/books/v1/volumes" }
        var queryItems: [URLQueryItem] {
            [URLQueryItem(name: "q", value: name)]
                + page.offsetQueryItems(offsetName: "startIndex", sizeName: "maxResults")
        }
    }

    static func search(_ name: String, client: FetchClient, baseURL: URL) -> Paginator<BookData> {
        client.pages(
            style: .offset(pageSize: 40), limits: .init(maximumPages: 10),
            endpoint: { VolumeSearch(baseURL: baseURL, name: name, page: $0) },
            extracting: .decode(VolumeData.self)
        ) { volumes in
            Page(items: volumes.books, totalItems: volumes.totalItems)
        }
    }

    // MARK: 3. invalidateAndCancel → cancel the old search only
    // (`SearchScreen` is compiled with the other UI samples in UISamples.swift.)

    // MARK: 4. Core Data entity → a stored struct

    struct Book: StoredEntity {
        var id: String
        var title: String
        var authors: String?
        var isbn13: String?
        var imageURL: URL?

        static let title = Field<Book, String>("title")

        init(_ data: BookData) {
            id = data.id
            title = data.title
            authors = data.authors
            isbn13 = data.isbn13
            imageURL = data.imageURL
        }
    }

    static func addBook(_ data: BookData, to store: ObjectStore) async throws {
        try await store.context.persist { tx in try tx.upsert(Book(data)) }
    }

    static func removeBook(id: String, from store: ObjectStore) async throws {
        try await store.context.persist { tx in try tx.delete(Book.self, id: id) }
    }

    // MARK: 5. NSFetchedResultsController + MulticastDelegate → an observation

    @MainActor final class LibraryScreen {
        var allBooks: [Book] = []
        var token: ObservationToken?
        func show(_ store: ObjectStore) {
            token = store.observe(.query(Query<Book>(sortedBy: [Book.title.ascending(caseInsensitive: true)]))) { [weak self] change in
                guard let self else { return }
                self.allBooks = change.results  // then reload the table
            }
        }
    }

}

@Suite struct BookLabFlowSampleTests {
    @Test func bookDataReadsTheRealResponseWithPathKeys() throws {
        let data = try Fixtures.data("googlebooks/volumes_tolstoy_10_items_2015.json")
        let volumes = try PathDecoder().decode(BookLabFlow.VolumeData.self, from: data)
        #expect(volumes.books.count == 10)
        #expect(volumes.books.allSatisfy { !$0.title.isEmpty })
    }

    @Test func searchWithNoMatchIsAnEmptyList() throws {
        let data = try Fixtures.data("googlebooks/volumes_zero_results.json")
        let volumes = try PathDecoder().decode(BookLabFlow.VolumeData.self, from: data)
        #expect(volumes.books.isEmpty)
    }

    @Test func searchStopsAtTheShortSecondPage() async throws {
        let server = StubServer()
        server.route(
            "GET", "/books/v1/volumes", query: ["startIndex": "0"],
            respond: .json(Self.page(count: 40, from: 0)))
        server.route(
            "GET", "/books/v1/volumes", query: ["startIndex": "40"],
            respond: .json(Self.page(count: 3, from: 40)))
        try server.start()
        defer { server.stop() }

        let summary = await BookLabFlow.search("Unreal Engine", client: FetchClient(), baseURL: server.baseURL)
            .collect()

        #expect(summary.items.count == 43)
        #expect(summary.stop == .shortPage)
        #expect(server.receivedRequests.count == 2)
    }

    private static func page(count: Int, from start: Int) -> String {
        let items = (start..<start + count).map { #"{"id": "v\#($0)", "volumeInfo": {"title": "Book \#($0)"}}"# }
        return #"{"totalItems": 811, "items": [\#(items.joined(separator: ","))]}"#
    }
}
