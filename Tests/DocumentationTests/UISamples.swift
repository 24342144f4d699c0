// The documentation's UI samples, each as a `@MainActor` class, compiled twice: here, in the
// default mode, and in MainActorDocumentationTests (a link to this file), whose target's
// default isolation is `MainActor`, as an Xcode 26 app target's is. The tests at the end run
// each sample against a real store or the loopback server and check the class's own state.
import FetchKit
import FetchKitTesting
import Foundation
import Persistence
import TestSupport
import Testing

enum UISamples {
    // Model types are `nonisolated`: values decoded and stored off the main actor, also where
    // the default isolation is `MainActor` (Docs/GettingStarted.md, "Apps whose default
    // isolation is MainActor").
    nonisolated struct Book: StoredEntity {
        var id: String
        var title: String
        static let title = Field<Book, String>("title")
    }

    nonisolated struct BookData: Decodable, Sendable {
        enum CodingKeys: String, CodingKey {
            case id, title = "volumeInfo.title"
        }
        var id: String
        var title: String
    }

    nonisolated struct VolumeData: Decodable, Sendable {
        enum CodingKeys: String, CodingKey {
            case items, totalItems
        }
        var items: [BookData]
        var totalItems: Int?
    }

    nonisolated struct VolumeSearch: Endpoint {
        var baseURL: URL
        var words: String
        var page: PageRequest
        var path: String { "/books/v1/volumes" }
        var queryItems: [URLQueryItem] {
            [URLQueryItem(name: "q", value: words)]
                + page.offsetQueryItems(offsetName: "startIndex", sizeName: "maxResults")
        }
    }

    // MARK: ObservingChanges.md, "Observed queries with change sets"

    @MainActor final class LibraryScreen {
        private(set) var books: [Book] = []
        private(set) var animated: [ChangeSet] = []
        private var token: ObservationToken?

        func startObserving(_ store: ObjectStore) {
            token = store.observe(Query<Book>(sortedBy: [Book.title.ascending()]), on: MainActor.self) { change in
                self.books = change.results
                self.animate(change.changes)
            }
        }

        /// A table view animates the change here: `deleted` rows (indexes in the old list),
        /// then `inserted`, `updated` and `moved` (indexes in the new one).
        func animate(_ changes: ChangeSet) {
            animated.append(changes)
        }
    }

    // MARK: FlowBookLab.md, "invalidateAndCancel → cancel the old search only"

    @MainActor final class SearchScreen {
        let client: FetchClient
        let baseURL: URL
        private(set) var results: [BookData] = []
        private(set) var status = ""
        private var current: RunHandle?

        init(client: FetchClient, baseURL: URL) {
            self.client = client
            self.baseURL = baseURL
        }

        func searchBarTextDidEndEditing(_ text: String) {
            current?.cancel()  // the old search stops; the client stays usable for the new one
            results = []
            current = search(text, client: client, baseURL: baseURL).collect(on: MainActor.self) { page in
                self.results += page.items  // show each page as it arrives
            } completion: { summary in
                self.status = "\(summary.items.count) results, stopped: \(summary.stop)"
            }
        }
    }

    // MARK: FetchClient's main-actor fetch (its documentation comment)

    @MainActor final class BookViewController {
        var title = ""
        func load(_ url: URL, client: FetchClient) {
            client.fetch(url, extracting: .string, on: MainActor.self) { result in
                self.title = (try? result.get()) ?? "Unavailable"
            }
        }
    }

    // MARK: ObjectContext's main-actor persist (its documentation comment)

    @MainActor final class SaveButton {
        var saved = false
        func save(_ book: Book, in context: ObjectContext) {
            context.persist({ tx in try tx.upsert(book) }, on: MainActor.self) { result in
                self.saved = (try? result.get()) != nil
            }
        }
    }

    // MARK: Docs/GettingStarted.md, "Apps whose default isolation is MainActor"

    enum DefaultIsolation {
        nonisolated struct Book: StoredEntity {
            var id: String
            var title: String
        }

        @MainActor final class LibraryScreen {
            private(set) var books: [Book] = []
            private var token: ObservationToken?

            func startObserving(_ store: ObjectStore) {
                token = store.observe(Query<Book>(), on: MainActor.self) { change in
                    self.books = change.results
                }
            }
        }
    }

    // MARK: Paginator's main-actor collect (its documentation comment)

    enum PaginatorComment {
        typealias Volume = BookData

        @MainActor final class SearchScreen {
            var results: [Volume] = []
            func show(_ pages: Paginator<Volume>) -> RunHandle {
                pages.collect(on: MainActor.self) { page in
                    self.results += page.items
                } completion: { summary in
                    print("\(summary.items.count) results")
                }
            }
        }
    }

    // MARK: Persistence.md and ObservingChanges.md, "Listeners"

    @MainActor final class ListScreen: EntityListener {
        var allBooks: [Book] = []
        func entitiesDidChange(_ books: [Book]) { allBooks = books }
    }
}

/// The search of FlowBookLab.md's "URLComponents + MAX_REQUESTS → a paginator", for these samples.
nonisolated func search(_ words: String, client: FetchClient, baseURL: URL) -> Paginator<UISamples.BookData> {
    client.pages(
        style: .offset(pageSize: 40), limits: .init(maximumPages: 10),
        endpoint: { UISamples.VolumeSearch(baseURL: baseURL, words: words, page: $0) },
        extracting: .decode(UISamples.VolumeData.self)
    ) { volumes in
        Page(items: volumes.items, totalItems: volumes.totalItems)
    }
}

/// Each UI sample, driven from the main actor: its class's own state changes in its callbacks.
@Suite @MainActor struct UISampleTests {
    @Test func theLibraryScreenSeesEveryCommitOnTheMainActor() async throws {
        let directory = try TemporaryDirectory(prefix: "UISamples")
        defer { directory.remove() }
        let store = try ObjectStore(at: directory.file("ui.sqlite"), entities: [UISamples.Book.self])
        let screen = UISamples.LibraryScreen()
        screen.startObserving(store)
        try await store.context.persist { tx in try tx.insert(UISamples.Book(id: "1", title: "Dune")) }
        #expect(await mainActorEventually { screen.books.map(\.title) == ["Dune"] })
        #expect(screen.animated.last?.inserted == [0])
    }

    @Test func theSearchScreenCollectsEveryPageOnTheMainActor() async throws {
        let server = StubServer()
        try server.start()
        defer { server.stop() }
        let items = (0..<3).map { #"{"id": "v\#($0)", "volumeInfo": {"title": "Book \#($0)"}}"# }
        server.route(
            "GET", "/books/v1/volumes",
            respond: .json(#"{"totalItems": 3, "items": [\#(items.joined(separator: ","))]}"#))
        let screen = UISamples.SearchScreen(client: FetchClient(), baseURL: server.baseURL)
        screen.searchBarTextDidEndEditing("dune")
        #expect(await mainActorEventually { !screen.status.isEmpty })
        #expect(screen.results.map(\.title) == ["Book 0", "Book 1", "Book 2"])
        #expect(screen.status.hasPrefix("3 results"))
    }

    @Test func theBookViewControllerSetsItsTitleOnTheMainActor() async throws {
        let server = StubServer()
        try server.start()
        defer { server.stop() }
        server.route("GET", "/title", respond: .text("Dune"))
        let controller = UISamples.BookViewController()
        controller.load(server.url("/title"), client: FetchClient())
        #expect(await mainActorEventually { controller.title == "Dune" })
    }

    @Test func theSaveButtonLearnsOfTheCommitOnTheMainActor() async throws {
        let directory = try TemporaryDirectory(prefix: "UISamples")
        defer { directory.remove() }
        let store = try ObjectStore(at: directory.file("ui.sqlite"), entities: [UISamples.Book.self])
        let button = UISamples.SaveButton()
        button.save(UISamples.Book(id: "1", title: "Dune"), in: store.context)
        #expect(await mainActorEventually { button.saved })
        #expect(try store.context.readAndWait { try $0.count(UISamples.Book.self) } == 1)
    }
}

extension UISampleTests {
    @Test func theListScreenIsToldOfEveryCommitOnTheMainActor() async throws {
        let directory = try TemporaryDirectory(prefix: "UISamples")
        defer { directory.remove() }
        let store = try ObjectStore(at: directory.file("ui.sqlite"), entities: [UISamples.Book.self])
        let screen = UISamples.ListScreen()
        store.addListener(screen, sortedBy: [UISamples.Book.title.ascending(caseInsensitive: true)])
        try await store.context.persist { tx in try tx.insert(UISamples.Book(id: "1", title: "Dune")) }
        #expect(await mainActorEventually { screen.allBooks.map(\.title) == ["Dune"] })
        store.removeListener(screen)
    }
}

/// Waits on the main actor, giving it up between looks so that main-actor callbacks can run.
@MainActor func mainActorEventually(_ condition: @MainActor () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + Patience.hang
    while !condition() {
        guard ContinuousClock.now < deadline else { return false }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return true
}
