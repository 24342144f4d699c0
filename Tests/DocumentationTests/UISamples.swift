// The documentation's UI samples, each as a `@MainActor` class, compiled twice: here, in the
// default mode, and in MainActorDocumentationTests (a link to this file), whose target's
// default isolation is `MainActor`, as an Xcode 26 app target's is. The tests at the end run
// each sample against a real store or the loopback server and check the class's own state.
import FetchKit
import FetchKitTesting
import Foundation
import Observation
import Persistence
import TestSupport
import Testing

#if canImport(SwiftUI)
    import SwiftUI
#endif

enum UISamples {
    // Model types are `nonisolated`: values decoded and stored off the main actor, also where
    // the default isolation is `MainActor` (Docs/GettingStarted.md, "Apps whose default
    // isolation is MainActor").
    nonisolated struct Book: StoredEntity {
        var id: String
        var title: String
        var author = ""
        var rating: Double?
        static let title = Field<Book, String>("title")
        static let author = Field<Book, String>("author")
        static let rating = Field<Book, Double?>("rating")
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

    // MARK: ObservingChanges.md, "Live queries"

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @MainActor final class ShelfScreen {
        let books: LiveValue<QueryChange<Book>>
        private(set) var rendered: [[String]] = []

        init(store: ObjectStore) {
            books = LiveValue(.query(Query<Book>(sortedBy: [Book.title.ascending()])), in: store)
            track()
        }

        /// Renders the results, and renders again after each change Observation reports.
        private func track() {
            withObservationTracking {
                render(books.value?.results ?? [])
            } onChange: {
                Task { @MainActor in self.track() }
            }
        }

        func render(_ books: [Book]) {
            rendered.append(books.map(\.title))
        }

        func showOnlyRated() {
            books.observation = .query(Query(where: Book.rating >= 1, sortedBy: [Book.rating.descending()]))
        }
    }

    #if canImport(SwiftUI)
        // MARK: ObservingChanges.md, "Live queries" (SwiftUI)

        @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
        struct ShelfView: View {
            @State private var books: LiveValue<QueryChange<Book>>

            init(store: ObjectStore) {
                _books = State(
                    initialValue: LiveValue(.query(Query<Book>(sortedBy: [Book.title.ascending()])), in: store))
            }

            var body: some View {
                List(books.value?.results ?? []) { book in
                    Text(book.title)
                }
                .overlay {
                    if let error = books.error { Text("\(error)") }
                }
            }
        }
    #endif

    // MARK: ObservingChanges.md, "Live aggregates"

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @MainActor final class LibraryHeader {
        let average: LiveValue<Double?>
        private(set) var text = ""

        init(store: ObjectStore) {
            average = LiveValue(
                .value(tracking: Book.self) { tx in
                    try tx.average(Book.rating)
                }, in: store)
            average.onChange = { [weak self] in self?.update() }
        }

        private func update() {
            guard let value = average.value else { return }
            text = value.map { String(format: "average rating %.1f", $0) } ?? "no ratings yet"
        }
    }

    // MARK: ObservingChanges.md, "Sections"

    @MainActor final class AuthorsScreen {
        private(set) var sections: [QuerySection<String, Book>] = []
        private(set) var sectionChanges: [ChangeSet] = []
        private var token: ObservationToken?

        func startObserving(_ store: ObjectStore) {
            let query = Query<Book>(sortedBy: [Book.author.ascending(), Book.title.ascending()])
            token = store.observe(.query(query, sectionedBy: \.author)) { [weak self] change in
                guard let self else { return }
                self.sections = change.sections
                // A table view deletes, inserts and moves sections by `change.sectionChanges`,
                // then applies `change.rowChanges[i]` inside section `i`.
                self.sectionChanges.append(change.sectionChanges)
            }
        }
    }

    // MARK: ObservingChanges.md, "Observed queries with change sets"

    @MainActor final class LibraryScreen {
        private(set) var books: [Book] = []
        private(set) var animated: [ChangeSet] = []
        private var token: ObservationToken?

        func startObserving(_ store: ObjectStore) {
            token = store.observe(.query(Query<Book>(sortedBy: [Book.title.ascending()]))) { [weak self] change in
                guard let self else { return }
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
            current = search(text, client: client, baseURL: baseURL).collect { page in
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
            client.fetch(.url(url), extracting: .string) { result in
                self.title = (try? result.get()) ?? "Unavailable"
            }
        }
    }

    // MARK: ObjectContext's main-actor persist (its documentation comment)

    @MainActor final class SaveButton {
        var saved = false
        func save(_ book: Book, in context: ObjectContext) {
            context.persist({ tx in try tx.upsert(book) }) { result in
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
                token = store.observe(.query(Query<Book>())) { [weak self] change in
                    guard let self else { return }
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
                pages.collect { page in
                    self.results += page.items
                } completion: { summary in
                    print("\(summary.items.count) results")
                }
            }
        }
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
        try await waitUntil("screen.books.map(.title) == ['Dune']") { screen.books.map(\.title) == ["Dune"] }
        #expect(screen.animated.last?.inserted == [0])
    }

    /// The documented observation (`[weak self]`, the token kept by the screen) does not keep
    /// its screen: let go, the screen is freed and its deliveries stop. With a strong `self` in
    /// the handler (as the samples had it), the screen kept itself alive through its token.
    @Test func aScreenThatObservesAsDocumentedIsFreedWhenLetGo() async throws {
        let directory = try TemporaryDirectory(prefix: "UISamples")
        defer { directory.remove() }
        let store = try ObjectStore(at: directory.file("ui.sqlite"), entities: [UISamples.Book.self])
        defer { store.close() }
        var screen: UISamples.LibraryScreen? = UISamples.LibraryScreen()
        weak let watched = screen
        screen?.startObserving(store)
        try await store.context.persist { tx in try tx.insert(UISamples.Book(id: "1", title: "Dune")) }
        try await waitUntil("the first delivery") { watched?.books.map(\.title) == ["Dune"] }
        screen = nil
        #expect(watched == nil, "the screen outlived its owner: its observation keeps it")
        var authors: UISamples.AuthorsScreen? = UISamples.AuthorsScreen()
        weak let watchedAuthors = authors
        authors?.startObserving(store)
        try await waitUntil("the authors' first delivery") { watchedAuthors?.sections.isEmpty == false }
        authors = nil
        #expect(watchedAuthors == nil, "the authors screen outlived its owner: its observation keeps it")
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
        try await waitUntil("!screen.status.isEmpty") { !screen.status.isEmpty }
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
        try await waitUntil("controller.title == 'Dune'") { controller.title == "Dune" }
    }

    @Test func theSaveButtonLearnsOfTheCommitOnTheMainActor() async throws {
        let directory = try TemporaryDirectory(prefix: "UISamples")
        defer { directory.remove() }
        let store = try ObjectStore(at: directory.file("ui.sqlite"), entities: [UISamples.Book.self])
        let button = UISamples.SaveButton()
        button.save(UISamples.Book(id: "1", title: "Dune"), in: store.context)
        try await waitUntil("button.saved") { button.saved }
        #expect(try store.context.readAndWait { try $0.count(Query<UISamples.Book>()) } == 1)
    }
}

extension UISampleTests {
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test func theShelfScreenRendersAgainAfterEachCommitAndQueryChange() async throws {
        let directory = try TemporaryDirectory(prefix: "UISamples")
        defer { directory.remove() }
        let store = try ObjectStore(at: directory.file("ui.sqlite"), entities: [UISamples.Book.self])
        try await store.context.persist { tx in try tx.insert(UISamples.Book(id: "1", title: "Dune", rating: 4)) }
        let screen = UISamples.ShelfScreen(store: store)
        try await waitUntil("screen.rendered.last == ['Dune']") { screen.rendered.last == ["Dune"] }
        try await store.context.persist { tx in try tx.insert(UISamples.Book(id: "2", title: "Beloved")) }
        try await waitUntil("screen.rendered.last == ['Beloved', 'Dune']") {
            screen.rendered.last == ["Beloved", "Dune"]
        }
        screen.showOnlyRated()
        try await waitUntil("screen.rendered.last == ['Dune'] && screen.books.isLoaded") {
            screen.rendered.last == ["Dune"] && screen.books.isLoaded
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test func theLibraryHeaderFollowsTheAverageRating() async throws {
        let directory = try TemporaryDirectory(prefix: "UISamples")
        defer { directory.remove() }
        let store = try ObjectStore(at: directory.file("ui.sqlite"), entities: [UISamples.Book.self])
        let header = UISamples.LibraryHeader(store: store)
        try await waitUntil("header.text == 'no ratings yet'") { header.text == "no ratings yet" }
        try await store.context.persist { tx in
            try tx.insert(UISamples.Book(id: "1", title: "Dune", rating: 4))
            try tx.insert(UISamples.Book(id: "2", title: "Emma", rating: 5))
        }
        try await waitUntil("header.text == 'average rating 4.5'") { header.text == "average rating 4.5" }
    }

    @Test func theAuthorsScreenGetsSectionsAndTheirChanges() async throws {
        let directory = try TemporaryDirectory(prefix: "UISamples")
        defer { directory.remove() }
        let store = try ObjectStore(at: directory.file("ui.sqlite"), entities: [UISamples.Book.self])
        try await store.context.persist { tx in
            try tx.insert(UISamples.Book(id: "1", title: "Dune", author: "Frank Herbert"))
            try tx.insert(UISamples.Book(id: "2", title: "Emma", author: "Jane Austen"))
        }
        let screen = UISamples.AuthorsScreen()
        screen.startObserving(store)
        try await waitUntil("screen.sections.map(.key) == ['Frank Herbert', 'Jane Austen']") {
            screen.sections.map(\.key) == ["Frank Herbert", "Jane Austen"]
        }
        try await store.context.persist { tx in
            try tx.insert(UISamples.Book(id: "3", title: "Persuasion", author: "Jane Austen"))
            try tx.insert(UISamples.Book(id: "4", title: "Kindred", author: "Octavia Butler"))
        }
        try await waitUntil("screen.sections.count == 3") { screen.sections.count == 3 }
        #expect(screen.sections[1].rows.map(\.title) == ["Emma", "Persuasion"])
        #expect(screen.sectionChanges.last == ChangeSet(inserted: [2], updated: [1]))
    }
}
