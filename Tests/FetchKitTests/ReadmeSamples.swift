import FetchKit
import FetchKitTesting
import Foundation
import Persistence
import TestSupport
import Testing

// The README's first-screen sample, compiled and run against the stub server. Keep the code
// between the markers identical to the README.

// README sample begins
struct Volume: Decodable, Sendable {  // one Google Books item, flattened by path keys
    enum CodingKeys: String, CodingKey {
        case id, title = "volumeInfo.title", isbn13 = "volumeInfo.industryIdentifiers[type=ISBN_13].identifier"
    }
    var id: String
    var title: String
    var isbn13: String?
}

struct Book: StoredEntity {  // what the library keeps
    var id: String
    var title: String
    var isbn13: String?
}

struct Search: Endpoint {
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
// README sample ends

@Suite struct ReadmeSamples {
    @Test func theReadmeShowsExactlyThisSample() throws {
        let here = URL(fileURLWithPath: #filePath)
        let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let source = try String(contentsOf: here, encoding: .utf8)
        let begin = "// README sample " + "begins\n"
        let end = "// README sample " + "ends"
        let sample = try #require(
            source.components(separatedBy: begin).dropFirst().first?.components(separatedBy: end).first)
        #expect(readme.contains(sample.trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    @Test func theReadmeSampleFetchesDecodesAndPersists() async throws {
        let server = StubServer()
        try server.start()
        defer { server.stop() }
        let page = try Data(contentsOf: Fixtures.url("googlebooks/volumes_dawn_page1_30_items.json"))
        server.route("GET", "/volumes", respond: .data(page))
        let store = try ObjectStore.inMemory(entities: [Book.self])
        var search = Search(words: "Dawn")
        search.baseURL = server.baseURL
        let volumes = try await FetchClient().fetch(search, extracting: .decode([Volume].self, at: "items"))
        #expect(volumes.count == 30)
        try await store.context.persist { transaction in
            for volume in volumes {
                try transaction.upsert(Book(id: volume.id, title: volume.title, isbn13: volume.isbn13))
            }
        }
        let stored = try store.context.readAndWait { try $0.fetch(Book.self) }
        #expect(stored.count == 30)
        #expect(stored.contains { $0.isbn13 == "9781514005668" && $0.title == "Dawn" })
        #expect(server.receivedRequests.first?.queryValue("q") == "Dawn")
        _ = saveFirstPage  // the sample itself talks to Google Books; here it is compiled, not run
    }
}
