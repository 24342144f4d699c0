import Dispatch
import FetchKit
import FetchKitTesting
import Foundation
import Locking
import Persistence
import TestSupport
import Testing

/// Callbacks run in the caller's isolation: a `@MainActor` class's plain trailing closures run on
/// the main actor, an actor's on the actor, and code isolated to no actor gets them on the
/// client's callback queue (or the queue it names).
@Suite struct CallerIsolationTests {
    /// Set on the main queue, where the main actor's callbacks run.
    static let mainKey: DispatchSpecificKey<String> = {
        let key = DispatchSpecificKey<String>()
        DispatchQueue.main.setSpecific(key: key, value: "main")
        return key
    }()

    static var onMainQueue: Bool { DispatchQueue.getSpecific(key: mainKey) == "main" }

    /// A screen model as an app writes it: plain trailing closures, no queue, no isolation argument.
    @MainActor final class Screen {
        var title = ""
        var progressReports = 0
        var titleSetOnMain = false
        var pages: [[Int]] = []
        var report: FanOutReport<Int>?
        var books: [Note] = []
        var token: ObservationToken?

        func load(_ url: URL, client: FetchClient) {
            client.fetch(.url(url), extracting: .string) { result in
                self.titleSetOnMain = CallerIsolationTests.onMainQueue
                self.title = (try? result.get()) ?? "failed"
            } progress: { _ in
                self.progressReports += 1
            }
        }

        func refresh(_ items: [Int]) {
            FanOut(maximumConcurrency: 2).run(items, changed: { _, _ in true }) { item in
                item * 10
            } completion: { report in
                self.report = report
            }
        }

        func page(_ pages: Paginator<Int>) {
            pages.collect { page in
                self.pages.append(page.items)
            } completion: { _ in
            }
        }

        func observe(_ store: ObjectStore) {
            token = store.observe(.query(Query<Note>(sortedBy: [Note.text.ascending()]))) { [weak self] change in
                guard let self else { return }
                self.books = change.results
            }
        }
    }

    struct Note: StoredEntity, Equatable {
        var id: Int
        var text: String
        static let text = Field<Note, String>("text")
    }

    actor Counter {
        var deliveries = 0
        var values: [String] = []

        func load(_ url: URL, client: FetchClient) {
            client.fetch(.url(url), extracting: .string) { result in
                self.assertIsolated()
                self.deliveries += 1
                self.values.append((try? result.get()) ?? "failed")
            }
        }
    }

    @Test @MainActor func aMainActorClassTrailingClosureRunsOnTheMainActor() async throws {
        _ = Self.mainKey
        let server = StubServer()
        server.route("GET", "/title", respond: .text("War and Peace"))
        try server.start()
        defer { server.stop() }
        let screen = Screen()
        screen.load(server.url("/title"), client: FetchClient())
        try await waitUntil("the title") { screen.title == "War and Peace" }
        #expect(screen.titleSetOnMain)
        #expect(screen.progressReports >= 1)  // the finished report, before the completion
    }

    @Test @MainActor func fanOutPagingAndObservationCallbacksRunOnTheMainActor() async throws {
        _ = Self.mainKey
        let screen = Screen()
        screen.refresh([1, 2, 3])
        try await waitUntil("the fan-out report") { screen.report != nil }
        #expect(screen.report?.values == [10, 20, 30])

        let pages = Paginator<Int>(style: .offset(pageSize: 2)) { request in
            Page(items: request.offset < 4 ? [request.offset, request.offset + 1] : [])
        }
        screen.page(pages)
        try await waitUntil("the pages") { screen.pages.count >= 2 }
        #expect(screen.pages.prefix(2) == [[0, 1], [2, 3]])

        let directory = try TemporaryDirectory(prefix: "CallerIsolationTests")
        defer { directory.remove() }
        let store = try ObjectStore(at: directory.file("notes.sqlite"), entities: [Note.self])
        screen.observe(store)
        try await store.context.persist { tx in try tx.insert(Note(id: 1, text: "first")) }
        try await waitUntil("the observed note") { screen.books.count == 1 }
        screen.token?.cancel()
    }

    @Test func anActorsTrailingClosureRunsOnTheActor() async throws {
        let server = StubServer()
        server.route("GET", "/value", respond: .text("42"))
        try server.start()
        defer { server.stop() }
        let counter = Counter()
        let client = FetchClient()
        for _ in 0..<20 { await counter.load(server.url("/value"), client: client) }
        for _ in 0..<2_000 where await counter.deliveries < 20 { try await Task.sleep(for: .milliseconds(5)) }
        #expect(await counter.deliveries == 20)
        #expect(await counter.values == Array(repeating: "42", count: 20))
    }

    @Test func codeIsolatedToNoActorGetsItsCallbacksOnTheClientsQueue() async throws {
        let server = StubServer()
        server.route("GET", "/value", respond: .text("42"))
        try server.start()
        defer { server.stop() }
        let clientQueue = DispatchQueue(label: "CallerIsolationTests.client")
        clientQueue.setSpecific(key: Self.queueKey, value: "client")
        let client = FetchClient { $0.callbackQueue = clientQueue }
        let onClientQueue = Arrival<Bool>()
        client.fetch(.url(server.url("/value")), extracting: .string) { _ in
            onClientQueue.fulfill(DispatchQueue.getSpecific(key: Self.queueKey) == "client")
        }
        #expect(try await onClientQueue.value(within: Patience.hang, "the client queue's callback"))
    }

    static let queueKey = DispatchSpecificKey<String>()

    /// Code isolated to no actor (a command-line tool's worker, a synchronous function) gets every
    /// callback on the queue the app set for it, the client's or the store's, or on the API's own
    /// (a context's, a run's), and can block until it comes: the fetch's completion, the
    /// observation's first delivery, a persist's and a read's completion, the pages and the
    /// fan-out's report. One form serves it: the callbacks' own isolation.
    @Test func codeIsolatedToNoActorGetsEveryCallbackOnTheAppsQueueWhileItWaits() throws {
        let server = StubServer()
        server.route("GET", "/value", respond: .text("42"))
        try server.start()
        defer { server.stop() }
        let queue = DispatchQueue(label: "CallerIsolationTests.named")
        queue.setSpecific(key: Self.queueKey, value: "named")
        let arrived = DispatchSemaphore(value: 0)
        let places = Locked<[String]>([])
        @Sendable func arrive(_ what: String) {
            places.withLock { $0.append("\(what): \(DispatchQueue.getSpecific(key: Self.queueKey) ?? "its own")") }
            arrived.signal()
        }
        func wait(for what: String) {
            #expect(arrived.wait(timeout: Patience.hangDeadline) == .success, "\(what) never came")
        }
        FetchClient { $0.callbackQueue = queue }.fetch(.url(server.url("/value")), extracting: .string) { _ in
            arrive("fetch")
        }
        wait(for: "the fetch's completion")

        let directory = try TemporaryDirectory(prefix: "CallerIsolationTests")
        defer { directory.remove() }
        let store = try ObjectStore(at: directory.file("notes.sqlite"), entities: [Note.self]) { $0.callbackQueue = queue }
        let token = store.observe(.query(Query<Note>())) { _ in arrive("observe") }
        wait(for: "the observation's first delivery")
        token.cancel()
        store.context.persist({ tx in try tx.insert(Note(id: 1, text: "first")) }) { _ in arrive("persist") }
        wait(for: "the persist's completion")
        store.context.read({ tx in try tx.count(Query<Note>()) }) { _ in arrive("read") }
        wait(for: "the read's completion")

        let pages = Paginator<Int>(style: .offset(pageSize: 2)) { request in
            Page(items: request.offset < 2 ? [request.offset, request.offset + 1] : [])
        }
        pages.collect { _ in
        } completion: { _ in
            arrive("collect")
        }
        wait(for: "the pages' completion")
        FanOut(maximumConcurrency: 2).run([1, 2], changed: { _, _ in true }) {
            $0
        } completion: { _ in
            arrive("run")
        }
        wait(for: "the fan-out's report")
        #expect(
            places.withLock { $0 }
                == [
                    "fetch: named", "observe: named", "persist: its own", "read: its own", "collect: its own",
                    "run: its own",
                ])
    }

    @Test func aHandleIsAwaitedForTheSameResultTheCompletionGets() async throws {
        let server = StubServer()
        server.route("GET", "/value", respond: .text("42"))
        server.route("GET", "/missing", respond: .status(404))
        try server.start()
        defer { server.stop() }
        let client = FetchClient { $0.retryPolicy = .none }
        let completed = Arrival<String>()
        let task = client.fetch(.url(server.url("/value")), extracting: .string) { result in
            completed.fulfill((try? result.get()) ?? "failed")
        }
        #expect(try await task.value == "42")
        #expect(try await completed.value(within: Patience.hang, "the completion") == "42")
        let missing = client.fetch(.url(server.url("/missing")), extracting: .string, completion: nil)
        guard case .failure(let error) = await missing.result else {
            Issue.record("a 404 succeeded")
            return
        }
        #expect(error.code == .unacceptableStatus)
        #expect(missing.isFinished)
    }
}
