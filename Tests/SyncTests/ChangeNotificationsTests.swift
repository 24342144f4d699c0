import FetchKit
import FetchKitTesting
import Foundation
import Locking
import Persistence
import Sync
import SyncHarness
import TestSupport
import Testing

@Suite("Following the server's change notifications")
struct ChangeNotificationsTests {
    @Test("A started collection pulls once connected and at each notification")
    func pullsAtConnectionAndNotifications() async throws {
        let fixture = try SyncFixture()
        let events = EventChannel(fixture.backend.server, path: "/events")
        fixture.backend.put("a", title: "before the start")
        let mirror = try fixture.mirror()
        await mirror.start(
            following: .serverSentEvents(NotesEvents(baseURL: fixture.backend.baseURL), reconnection: .quick))
        // The pull once connected finds what changed before.
        #expect(await eventually { (try? fixture.local()["a"]?.title) == "before the start" })
        #expect(await mirror.status.isFollowing)

        fixture.backend.put("b", title: "from the server")
        events.send("event: notes\ndata: {\"id\":\"b\",\"title\":\"stale\"}\n\n")
        #expect(await eventually { (try? fixture.local()["b"]?.title) == "from the server" })
        // A local write is still sent by the started collection.
        try fixture.save(Note(id: "c", title: "written here"), through: mirror)
        #expect(await eventually { fixture.backend.notes["c"]?.title == "written here" })

        await mirror.stop()
        #expect(await eventually { events.closed == events.opened })
        #expect(await mirror.status.isFollowing == false)
        #expect(try fixture.localContents() == fixture.serverContents())
    }

    @Test("Notifications that arrive during a run start one more pull, not one each")
    func aBurstIsOnePull() async throws {
        let fixture = try SyncFixture()
        let events = EventChannel(fixture.backend.server, path: "/events")
        let mirror = try fixture.mirror()
        let seen = Collector<String>()
        await mirror.start(
            following: .serverSentEvents(NotesEvents(baseURL: fixture.backend.baseURL), reconnection: .quick) { event in
                seen.append(event.data)
                return event.data != "end"
            })
        #expect(await eventually { fixture.backend.listRequests == 1 })
        #expect(await eventually { await mirror.status.isSyncing == false })

        // The first notification's pull is held at the server until the client has handled all
        // 20 (events are read one after the other: the client reads "end" once the 20th is handled).
        let release = DispatchSemaphore(value: 0)
        fixture.backend.failLists(.hold { release.wait() })
        fixture.backend.put("b", title: "changed")
        events.send((1...20).map { "data: \($0)\n\n" }.joined() + "data: end\n\n")
        try await waitUntil("the client handled the 20 notifications") { seen.values.last == "end" }
        release.signal()
        #expect(await eventually { (try? fixture.local()["b"]?.title) == "changed" })
        #expect(await eventually { await mirror.status.isSyncing == false })
        await mirror.stop()
        // The catch-up pull, the pull of the first notification, and at most one for the 19 others.
        #expect((2...3).contains(fixture.backend.listRequests))
    }

    @Test("A notification that arrives after a run read its page starts another pull")
    func aNotificationDuringARunIsNotLost() async throws {
        let fixture = try SyncFixture()
        let events = EventChannel(fixture.backend.server, path: "/events")
        let mirror = try fixture.mirror()
        let seen = Collector<String>()
        await mirror.start(
            following: .serverSentEvents(NotesEvents(baseURL: fixture.backend.baseURL), reconnection: .quick) { event in
                seen.append(event.data)
                return true
            })
        #expect(await eventually { fixture.backend.listRequests == 1 })
        #expect(await eventually { await mirror.status.isSyncing == false })

        // The first notification's page is read with b, and its answer held; c is made and
        // announced meanwhile, after the page.
        let release = DispatchSemaphore(value: 0)
        fixture.backend.failLists(.holdAnswer { release.wait() })
        fixture.backend.put("b", title: "first")
        events.send("data: b\n\n")
        try await waitUntil("the page was read") { fixture.backend.listRequests == 2 }
        fixture.backend.put("c", title: "second")
        events.send("data: c\n\n")
        try await waitUntil("the client read both notifications") { seen.values.count == 2 }
        release.signal()
        #expect(await eventually { (try? fixture.local()["c"]?.title) == "second" })
        #expect(try fixture.local()["b"]?.title == "first")
        // Found by the pull the notification asked for, not by a reconnection's.
        #expect(events.opened == 1)
        await mirror.stop()
    }

    @Test("After a broken connection the collection connects again, sends Last-Event-ID, and pulls what it missed")
    func reconnectsAndCatchesUp() async throws {
        let fixture = try SyncFixture()
        let events = EventChannel(fixture.backend.server, path: "/events")
        let mirror = try fixture.mirror()
        let seen = Collector<String>()
        await mirror.start(
            following: .serverSentEvents(NotesEvents(baseURL: fixture.backend.baseURL), reconnection: .quick) { event in
                seen.append(event.id ?? "")
                return true
            })
        fixture.backend.put("before", title: "announced")
        events.send("id: 7\ndata: hello\n\n")
        try await waitUntil("the client read the event") { seen.values.contains("7") }
        #expect(await eventually { (try? fixture.local()["before"]) != nil })
        #expect(await eventually { await mirror.status.isSyncing == false })
        let connections = events.opened
        let lists = fixture.backend.listRequests
        // The connection breaks; a change is made while none is open, and no event announces it.
        try await events.breakConnections { fixture.backend.put("gap", title: "made while disconnected") }
        #expect(await eventually { events.opened > connections })
        #expect(await eventually { (try? fixture.local()["gap"]?.title) == "made while disconnected" })
        #expect(fixture.backend.listRequests > lists)
        #expect(events.requests[connections].header("Last-Event-ID") == "7")
        #expect(await mirror.status.isFollowing)
        await mirror.stop()
    }

    @Test("A stream the server refuses ends following, says why in the status, and pushes go on")
    func refusedStreamEndsFollowing() async throws {
        let fixture = try SyncFixture()
        fixture.backend.server.route("GET", "/events", respond: .json(#"{"message":"no such stream"}"#, status: 404))
        let mirror = try fixture.mirror()
        await mirror.start(
            following: .serverSentEvents(NotesEvents(baseURL: fixture.backend.baseURL), reconnection: .quick))
        #expect(await eventually { await mirror.status.followingError != nil })
        let status = await mirror.status
        #expect(status.isFollowing == false)
        #expect(status.followingError?.fetchError?.statusCode == 404)
        #expect(status.followingError?.message.contains("notifications") == true)
        #expect(fixture.backend.server.requests(to: "/events").count == 1)
        try fixture.save(Note(id: "a", title: "still sent"), through: mirror)
        #expect(await eventually { fixture.backend.notes["a"]?.title == "still sent" })
        await mirror.stop()
    }

    @Test(
        "PocketBase's realtime API: subscribed on each connection with its client id and the client's auth, then a pull"
    )
    func pocketBaseRealtime() async throws {
        let fixture = try SyncFixture()
        let events = EventChannel(fixture.backend.server, path: "/api/realtime") { connection in
            "id:client\(connection)\nevent:PB_CONNECT\ndata:{\"clientId\":\"client\(connection)\"}\n\n"
        }
        let subscriptions = Collector<RecordedRequest>()
        fixture.backend.server.route("POST", "/api/realtime") { request in
            subscriptions.append(request)
            return .status(204)
        }
        var configuration = NotesAPI.client().configuration
        configuration.adapters = [HeaderAdapter(["Authorization": "user-token"])]
        let client = FetchClient(configuration: configuration)
        let mirror = try SyncedCollection(
            NotesAPI.collection(at: fixture.backend.baseURL), store: fixture.store, client: client)
        await mirror.start(
            following: .pocketBase(at: fixture.backend.baseURL, collections: ["notes"], reconnection: .quick))
        #expect(await eventually { subscriptions.values.count == 1 })
        #expect(await eventually { fixture.backend.listRequests == 1 })
        let first = try #require(subscriptions.values.first)
        let body = try JSONSerialization.jsonObject(with: first.body) as? [String: Any]
        #expect(body?["clientId"] as? String == "client1")
        #expect(body?["subscriptions"] as? [String] == ["notes/*"])
        #expect(first.header("Authorization") == "user-token")
        // The pull once subscribed came after the subscription.
        let order = fixture.backend.server.receivedRequests.map { "\($0.method) \($0.path)" }
        #expect(order.firstIndex(of: "POST /api/realtime")! < order.firstIndex(of: "GET /notes")!)

        // A record event pulls; an event of another topic does not.
        events.send("event:other/*\ndata:{\"action\":\"create\",\"record\":{}}\n\n")
        fixture.backend.put("a", title: "made elsewhere")
        events.send("id:client1\nevent:notes/*\ndata:{\"action\":\"create\",\"record\":{\"id\":\"a\"}}\n\n")
        #expect(await eventually { (try? fixture.local()["a"]?.title) == "made elsewhere" })
        #expect(fixture.backend.listRequests == 2)

        // A new connection is a new client: subscribed again under its new id.
        try await events.breakConnections {}
        #expect(await eventually { subscriptions.values.count == 2 })
        let second = try JSONSerialization.jsonObject(with: subscriptions.values[1].body) as? [String: Any]
        #expect(second?["clientId"] as? String == "client2")
        await mirror.stop()
        #expect(await eventually { events.closed == events.opened })
    }

    @Test("A subscription refused for good ends following with the server's reason")
    func pocketBaseSubscriptionRefused() async throws {
        let fixture = try SyncFixture()
        _ = EventChannel(fixture.backend.server, path: "/api/realtime") { _ in
            "event:PB_CONNECT\ndata:{\"clientId\":\"abc\"}\n\n"
        }
        fixture.backend.server.route(
            "POST", "/api/realtime",
            respond: .json(
                #"{"message":"The current and the previous request authorization don't match."}"#, status: 403))
        let mirror = try fixture.mirror()
        await mirror.start(
            following: .pocketBase(at: fixture.backend.baseURL, collections: ["notes"], reconnection: .quick))
        #expect(await eventually { await mirror.status.followingError != nil })
        let error = try #require(await mirror.status.followingError)
        #expect(error.fetchError?.statusCode == 403)
        #expect(error.message.contains("notes/*"))
        await mirror.stop()
    }

    @Test("A sync() called while a started collection pushes pulls after the push instead of joining it")
    func aSyncDuringAStartedPushPulls() async throws {
        let fixture = try SyncFixture()
        let mirror = try fixture.mirror()
        await mirror.start()
        let release = DispatchSemaphore(value: 0)
        fixture.backend.failWrites(.hold { release.wait() })
        try fixture.save(Note(id: "a", title: "pushed"), through: mirror)
        try await waitUntil("the started push reached the server") { fixture.backend.writeRequests == 1 }
        fixture.backend.put("b", title: "on the server")
        let lists = fixture.backend.listRequests
        let called = Task { try await mirror.sync() }
        // The call reaches the engine while the push is held (it waits at the server, not here).
        try await Task.sleep(for: .milliseconds(100))
        release.signal()
        let report = try await called.value
        #expect(fixture.backend.listRequests > lists)
        #expect(report.recordsApplied >= 1)
        #expect(try fixture.local()["b"]?.title == "on the server")
        await mirror.stop()
    }

    @Test("A pull a notification starts waits out a write's backoff instead of sending it again")
    func notificationsHonourBackoff() async throws {
        let fixture = try SyncFixture()
        let events = EventChannel(fixture.backend.server, path: "/events")
        let mirror = try fixture.mirror()
        await mirror.start(
            following: .serverSentEvents(NotesEvents(baseURL: fixture.backend.baseURL), reconnection: .quick))
        #expect(await eventually { fixture.backend.listRequests == 1 })
        fixture.backend.failWrites(.status(429, retryAfter: "120"))
        try fixture.save(Note(id: "a", title: "waits"), through: mirror)
        try await waitUntil("the write was refused for now") { fixture.backend.writeRequests == 1 }
        #expect(await eventually { await mirror.status.nextRetry != nil })
        for index in 1...3 {
            let lists = fixture.backend.listRequests
            events.send("data: \(index)\n\n")
            try await waitUntil("notification \(index)'s pull") { fixture.backend.listRequests > lists }
            #expect(await eventually { await mirror.status.isSyncing == false })
        }
        #expect(fixture.backend.writeRequests == 1)
        // A sync() the app asks for sends it now.
        try await mirror.sync()
        #expect(fixture.backend.notes["a"]?.title == "waits")
        await mirror.stop()
    }

    @Test("A subscription that fails for now, or that the app's cancelAll() cancels, is made again on a new connection")
    func failedOrCancelledSubscriptionsReconnect() async throws {
        let fixture = try SyncFixture()
        let events = EventChannel(fixture.backend.server, path: "/api/realtime") { connection in
            "event:PB_CONNECT\ndata:{\"clientId\":\"client\(connection)\"}\n\n"
        }
        let subscriptions = Collector<String>()
        // The first subscription meets a 503, the second a 404 (the connection it names is gone),
        // the third is held until the app cancels it, the fourth goes through.
        let held = DispatchSemaphore(value: 0)
        let answers = Locked([
            StubResponse.status(503), .json(#"{"message":"Missing or invalid client id."}"#, status: 404),
        ])
        fixture.backend.server.route("POST", "/api/realtime") { request in
            let body = (try? JSONSerialization.jsonObject(with: request.body)) as? [String: Any]
            subscriptions.append(body?["clientId"] as? String ?? "")
            if subscriptions.values.count == 3 { held.wait() }
            return answers.withLock { $0.isEmpty ? .status(204) : $0.removeFirst() }
        }
        let client = NotesAPI.client()
        let mirror = try SyncedCollection(
            NotesAPI.collection(at: fixture.backend.baseURL), store: fixture.store, client: client)
        await mirror.start(
            following: .pocketBase(at: fixture.backend.baseURL, collections: ["notes"], reconnection: .quick))
        try await waitUntil("the third subscription") { subscriptions.values.count == 3 }
        #expect(fixture.backend.listRequests == 0)
        client.cancelAll()
        try await waitUntil("the fourth subscription") { subscriptions.values.count == 4 }
        held.signal()
        #expect(subscriptions.values == ["client1", "client2", "client3", "client4"])
        #expect(await eventually { fixture.backend.listRequests == 1 })
        fixture.backend.put("a", title: "after the cancel")
        events.send("event:notes/*\ndata:{}\n\n")
        #expect(await eventually { (try? fixture.local()["a"]?.title) == "after the cancel" })
        let status = await mirror.status
        #expect(status.isFollowing)
        #expect(status.followingError == nil)
        await mirror.stop()
    }

    @Test("A start after following ended follows again")
    func startAgainAfterTheEnd() async throws {
        let fixture = try SyncFixture()
        fixture.backend.server.route("GET", "/events", respondInTurn: [.status(404)])
        let mirror = try fixture.mirror()
        let notifications = ChangeNotifications.serverSentEvents(
            NotesEvents(baseURL: fixture.backend.baseURL), reconnection: .quick)
        await mirror.start(following: notifications)
        #expect(await eventually { await mirror.status.followingError != nil })
        // The cause is fixed; the app starts the collection again.
        let events = EventChannel(fixture.backend.server, path: "/events")
        await mirror.start(following: notifications)
        #expect(await eventually { events.opened == 1 })
        let status = await mirror.status
        #expect(status.isFollowing)
        #expect(status.followingError == nil)
        await mirror.stop()
    }

    @Test("A group follows one stream and runs its whole sync at each notification")
    func groupFollows() async throws {
        let fixture = try SyncFixture()
        let events = EventChannel(fixture.backend.server, path: "/events")
        let notes = try fixture.mirror()
        let group = try SyncGroup(notes)
        await group.start(
            following: .serverSentEvents(NotesEvents(baseURL: fixture.backend.baseURL), reconnection: .quick))
        #expect(await eventually { events.opened == 1 })
        fixture.backend.put("a", title: "through the group")
        events.send("data: notes\n\n")
        #expect(await eventually { (try? fixture.local()["a"]?.title) == "through the group" })
        #expect(await group.status.isFollowing)
        await notes.stop()  // a member's stop stops its group
        #expect(await eventually { events.closed == 1 })
        #expect(await group.status.isFollowing == false)
    }
}

extension EventSource.Reconnection {
    /// Reconnects after 10 ms: the tests' breaks are deliberate.
    static let quick = EventSource.Reconnection(delay: .milliseconds(10), maximumDelay: .milliseconds(100))
}

/// The notes backend's event stream.
struct NotesEvents: Endpoint {
    var baseURL: URL
    var path = "/events"
    /// A quiet stream is not taken for broken (and reconnected) during a test however slow it runs.
    var timeout: Duration? { .seconds(600) }
}

/// An event stream served at `path`: each connection writes what ``send(_:)`` queues, in order,
/// until the client closes it or the test breaks it.
final class EventChannel: Sendable {
    private struct State {
        var queued: [String] = []
        var generation = 0
        var opened = 0
        var closed = 0
        var requests: [RecordedRequest] = []
        /// New connections wait while the test changes the server between two connections.
        var holding = false
    }
    private let state = Locked(State())

    init(_ server: StubServer, path: String, greeting: (@Sendable (Int) -> String)? = nil) {
        server.route("GET", path) { [state] request in
            // The stub server runs the handler on the connection's own thread.
            while state.withLock({ $0.holding }) { Thread.sleep(forTimeInterval: 0.002) }
            let (connection, generation) = state.withLock { state in
                state.opened += 1
                state.requests.append(request)
                return (state.opened, state.generation)
            }
            return .stream(headers: ["Content-Type": "text/event-stream"]) { writer in
                defer { state.withLock { $0.closed += 1 } }
                if let greeting, !writer.write(greeting(connection)) { return }
                while true {
                    let (next, broken) = state.withLock { state in
                        (state.queued.isEmpty ? nil : state.queued.removeFirst(), state.generation != generation)
                    }
                    if broken { return writer.dropConnection() }
                    if let next {
                        if !writer.write(next) { return }
                    } else if !writer.pause(.milliseconds(5)) {
                        return
                    }
                }
            }
        }
    }

    var opened: Int { state.withLock { $0.opened } }
    var closed: Int { state.withLock { $0.closed } }
    var requests: [RecordedRequest] { state.withLock { $0.requests } }

    /// Queues text for the open connection.
    func send(_ text: String) { state.withLock { $0.queued.append(text) } }

    /// Breaks the open connections, running `meanwhile` once they are closed and before a new
    /// one is answered.
    func breakConnections(meanwhile: @Sendable () -> Void) async throws {
        let before = state.withLock { state in
            state.generation += 1
            state.holding = true
            return state.opened
        }
        defer { state.withLock { $0.holding = false } }
        try await waitUntil("the connections closed") { state.withLock { $0.closed >= before } }
        meanwhile()
    }
}
