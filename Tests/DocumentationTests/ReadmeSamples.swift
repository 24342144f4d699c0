import Decoding
import FetchKit
import Foundation
import Persistence

/// The README's code sample, compiled (never run) so it stays honest. The README shows the
/// body of `commonPath(libraryURL:)`; the types above it are what the sample assumes.
enum ReadmeSamples {
    enum GoogleBooks: Endpoint {
        case search(String)

        var baseURL: URL { URL(string: "https://www.googleapis.com/books/v1") ?? URL(fileURLWithPath: "/") }
        var path: String { "/volumes" }
        var queryItems: [URLQueryItem] {
            switch self {
            case .search(let text): [URLQueryItem(name: "q", value: text)]
            }
        }
    }

    struct Book: StoredEntity {
        var id: String
        var title: String

        static let title = Field<Book, String>("title")
    }

    struct Volume: Decodable, Sendable {
        enum CodingKeys: String, CodingKey {
            case id
            case title = "volumeInfo.title"  // a path, read by the Decoding module
        }

        var id: String
        var title: String
    }

    static func commonPath(libraryURL: URL) async throws {
        let client = FetchClient()
        let volumes = try await client.fetch(
            GoogleBooks.search("Unreal Engine"), extracting: .decode([Volume].self, at: "items"))

        let store = try ObjectStore(at: libraryURL, entities: [Book.self])
        try await store.context.persist { tx in
            for volume in volumes { try tx.upsert(Book(id: volume.id, title: volume.title)) }
        }
        let shelf = try await store.context.read { tx in
            try tx.fetch(Book.self, sortedBy: [Book.title.ascending(caseInsensitive: true)])
        }
        print(shelf.map(\.title))
    }
}
