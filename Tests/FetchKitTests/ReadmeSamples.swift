import FetchKit
import FetchKitTesting
import Foundation
import Persistence
import TestSupport
import Testing

// The README's first-screen sample is `ReadmeSample.swift`, the whole file as printed in
// the README, imports included: compiled here as its own file, and compared below.

@Suite struct ReadmeSamples {
    @Test func theReadmeShowsExactlyThisSample() throws {
        let here = URL(fileURLWithPath: #filePath)
        let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let sample = try String(
            contentsOf: here.deletingLastPathComponent().appendingPathComponent("ReadmeSample.swift"), encoding: .utf8)
        #expect(sample.hasPrefix("import "))
        #expect(readme.contains("```swift\n" + sample + "```\n"), "the README's block differs from ReadmeSample.swift")
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
        let stored = try store.context.readAndWait { try $0.fetch(Query<Book>()) }
        #expect(stored.count == 30)
        #expect(stored.contains { $0.isbn13 == "9781514005668" && $0.title == "Dawn" })
        #expect(server.receivedRequests.first?.queryValue("q") == "Dawn")
        _ = saveFirstPage  // the sample itself talks to Google Books; here it is compiled, not run
    }
}
