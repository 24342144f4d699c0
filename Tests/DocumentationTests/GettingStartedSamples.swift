import Decoding
import FetchKit
import FetchKitTesting
import Foundation
import Persistence
import TestSupport
import Testing

/// The code of `Docs/GettingStarted.md` and the `GettingStarted` DocC article, line for line
/// (inside a namespace), run against the stub server and a real SQLite file.
enum GettingStarted {
    /// Google Books' search: `GET /books/v1/volumes?q=…&maxResults=20`.
    struct VolumeSearch: Endpoint {
        var baseURL: URL
        var text: String

        var path: String { "/books/v1/volumes" }
        var queryItems: [URLQueryItem] {
            [URLQueryItem(name: "q", value: text), URLQueryItem(name: "maxResults", value: "20")]
        }
    }

    /// One search result, read from the JSON with path keys.
    struct Volume: Decodable, Sendable {
        enum CodingKeys: String, CodingKey {
            case id
            case title = "volumeInfo.title"
            case authors = "volumeInfo.authors"
            case isbn = "volumeInfo.industryIdentifiers[type=ISBN_13].identifier"
        }

        var id: String
        var title: String
        var authors: [String]?
        var isbn: String?
    }

    /// A page of results. A search with no match has no `items` key: an empty page.
    struct VolumePage: Decodable, Sendable {
        enum CodingKeys: String, CodingKey { case volumes = "items" }

        @DefaultEmpty var volumes: [Volume]
    }

    /// A book on the shelf: one row of the `Book` table.
    struct Book: StoredEntity {
        var id: String
        var title: String
        var authors: [String]
        var isbn: String?

        static let title = Field<Book, String>("title")

        init(_ volume: Volume) {
            id = volume.id
            title = volume.title
            authors = volume.authors ?? []
            isbn = volume.isbn
        }
    }

    /// Searches, saves every result on the shelf, and returns the shelf sorted by title.
    static func fillShelf(searching text: String, at baseURL: URL, storeURL: URL) async throws -> [Book] {
        let client = FetchClient()
        let page = try await client.fetch(
            VolumeSearch(baseURL: baseURL, text: text), extracting: .decode(VolumePage.self))

        let store = try ObjectStore(at: storeURL, entities: [Book.self])
        defer { store.close() }
        try await store.context.persist { tx in
            for volume in page.volumes {
                try tx.upsert(Book(volume))  // a book found twice is stored once
            }
        }
        return try await store.context.read { tx in
            try tx.fetch(Query<Book>(sortedBy: [Book.title.ascending(caseInsensitive: true)]))
        }
    }

    /// A trimmed Google Books answer, served when the program runs offline.
    static let sampleSearchResponse = """
        {"kind": "books#volumes", "totalItems": 3, "items": [
          {"id": "zWW6DwAAQBAJ", "volumeInfo": {"title": "Unreal Engine 4 Game Development Quick Start Guide",
            "authors": ["Rachel Cordone"],
            "industryIdentifiers": [{"type": "ISBN_10", "identifier": "1789950708"},
                                    {"type": "ISBN_13", "identifier": "9781789950700"}]}},
          {"id": "Wy1yDwAAQBAJ", "volumeInfo": {"title": "Blueprints Visual Scripting for Unreal Engine",
            "authors": ["Marcos Romero", "Brenden Sewell"]}},
          {"id": "8vXYDwAAQBAJ", "volumeInfo": {"title": "Elevating Game Experiences with Unreal Engine 5"}}
        ]}
        """
}

@Suite struct GettingStartedTests {
    @Test func guideProgramFetchesDecodesAndPersistsTheShelfSortedByTitle() async throws {
        let server = StubServer()
        server.route("GET", "/books/v1/volumes", respond: .json(GettingStarted.sampleSearchResponse))
        try server.start()
        defer { server.stop() }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }

        let books = try await GettingStarted.fillShelf(
            searching: "Unreal Engine", at: server.baseURL, storeURL: directory.file("shelf.sqlite"))

        #expect(
            books.map(\.title) == [
                "Blueprints Visual Scripting for Unreal Engine",
                "Elevating Game Experiences with Unreal Engine 5",
                "Unreal Engine 4 Game Development Quick Start Guide",
            ])
        #expect(books.first?.authors == ["Marcos Romero", "Brenden Sewell"])
        #expect(books.last?.isbn == "9781789950700")
        let request = try #require(server.receivedRequests.first)
        #expect(request.queryValue("q") == "Unreal Engine")
        #expect(request.queryValue("maxResults") == "20")
    }

    @Test func guideProgramRunTwiceKeepsOneRowPerBook() async throws {
        let server = StubServer()
        server.route("GET", "/books/v1/volumes", respond: .json(GettingStarted.sampleSearchResponse))
        try server.start()
        defer { server.stop() }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let storeURL = directory.file("shelf.sqlite")

        _ = try await GettingStarted.fillShelf(searching: "Unreal Engine", at: server.baseURL, storeURL: storeURL)
        let again = try await GettingStarted.fillShelf(
            searching: "Unreal Engine", at: server.baseURL, storeURL: storeURL)

        #expect(again.count == 3)
    }

    @Test func guideProgramTreatsASearchWithNoMatchAsAnEmptyShelf() async throws {
        let server = StubServer()
        server.route("GET", "/books/v1/volumes", respond: .json(#"{"kind": "books#volumes", "totalItems": 0}"#))
        try server.start()
        defer { server.stop() }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }

        let books = try await GettingStarted.fillShelf(
            searching: "zzzz", at: server.baseURL, storeURL: directory.file("shelf.sqlite"))

        #expect(books.isEmpty)
    }
}
