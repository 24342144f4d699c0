import FetchKit
import Foundation
import Persistence

nonisolated struct Volume: Decodable, Sendable {  // one Google Books item, flattened by path keys
    enum CodingKeys: String, CodingKey {
        case id, title = "volumeInfo.title", isbn13 = "volumeInfo.industryIdentifiers[type=ISBN_13].identifier"
    }
    var id: String
    var title: String
    var isbn13: String?
}

nonisolated struct Book: StoredEntity {  // what the library keeps
    var id: String
    var title: String
    var isbn13: String?
}

nonisolated struct Search: Endpoint {
    var baseURL = URL(string: "https://www.googleapis.com/books/v1")!
    var path = "/volumes"
    var words: String
    var queryItems: [URLQueryItem] { [URLQueryItem(name: "q", value: words)] }
}

func saveFirstPage(of words: String, into store: ObjectStore, using client: FetchClient) async throws {
    let volumes = try await client.fetch(Search(words: words), extracting: .decode([Volume].self, at: "items"))
    try await store.context.persist { transaction in
        for volume in volumes {
            try transaction.upsert(Book(id: volume.id, title: volume.title, isbn13: volume.isbn13))
        }
    }
}
