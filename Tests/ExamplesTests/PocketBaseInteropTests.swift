import Foundation
import Locking
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A real PocketBase server on loopback, started from the binary `FETCHKIT_POCKETBASE` names,
/// with the repository's migration (`Interop/PocketBase/pb_migrations`) on a fresh data folder.
final class PocketBaseServer: Sendable {
    /// The binary, when the environment names one (`.ci/run` installs it with pip and does).
    static var binary: String? {
        ProcessInfo.processInfo.environment["FETCHKIT_POCKETBASE"].flatMap { $0.isEmpty ? nil : $0 }
    }

    let folder: TemporaryDirectory
    let port: Int
    private let process = Locked<ChildProcess?>(nil)

    var url: URL { URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/") }

    init() throws {
        folder = try TemporaryDirectory(prefix: "PocketBase")
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        // A copy: a server that changes a collection writes migration files into its folder.
        try FileManager.default.copyItem(
            at: root.appendingPathComponent("Interop/PocketBase/pb_migrations"), to: folder.file("migrations"))
        // Below Linux's ephemeral range (32768 up): a port the kernel gives out to a client
        // socket or a proxy meanwhile would keep a restart from binding it.
        port = 20_000 + Int.random(in: 0..<12_000)
    }

    /// Starts the server (again, on the same folder and port) and waits until it answers.
    func start() async throws {
        guard let binary = Self.binary else { throw PocketBaseFailure(description: "FETCHKIT_POCKETBASE is not set") }
        let process = try ChildProcess(
            executable: URL(fileURLWithPath: binary),
            [
                "serve", "--http", "127.0.0.1:\(port)", "--dir", folder.file("data").path, "--migrationsDir",
                folder.file("migrations").path, "--automigrate=false",
            ])
        self.process.withLock { $0 = process }
        let clock = ContinuousClock()
        let deadline = clock.now + Patience.hang
        while clock.now < deadline {
            if let ending = process.ending {
                throw PocketBaseFailure(
                    description: "PocketBase ended (\(ending)) before it answered on port \(port); is the port taken?")
            }
            if let (_, response) = try? await URLSession.shared.data(from: url.appendingPathComponent("api/health")),
                (response as? HTTPURLResponse)?.statusCode == 200
            {
                return
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw PocketBaseFailure(description: "PocketBase did not answer on port \(port)")
    }

    /// Kills the server (SIGKILL) and waits for it to end.
    func kill() {
        guard let process = process.withLock({ $0 }) else { return }
        process.send(SIGKILL)
        _ = process.waitBlocking()
    }

    /// Sends a JSON request and returns the answer's JSON object.
    func send(
        _ method: String, _ path: String, _ body: [String: Any], token: String? = nil
    ) async throws -> [String: Any] {
        var request = URLRequest(url: url.appendingPathComponent(path))
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        request.httpBody = try JSONSerialization.data(withJSONObject: body)
        let (data, response) = try await URLSession.shared.data(for: request)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else {
            throw PocketBaseFailure(description: "\(method) \(path): \(String(decoding: data, as: UTF8.self))")
        }
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    /// Deletes a record (of the books collection by default) outright, as another client would:
    /// PocketBase keeps no tombstone of it.
    func deleteRecord(_ id: String, of collection: String = "books") async throws {
        var request = URLRequest(url: url.appendingPathComponent("api/collections/\(collection)/records/\(id)"))
        request.httpMethod = "DELETE"
        let (data, response) = try await URLSession.shared.data(for: request)
        guard (response as? HTTPURLResponse)?.statusCode == 204 else {
            throw PocketBaseFailure(description: "DELETE \(id): \(String(decoding: data, as: UTF8.self))")
        }
    }

    /// Makes the books collection need a signed-in user, as an administrator would in the
    /// dashboard: a superuser (made with the binary's `superuser upsert`) changes its rules.
    func requireSignedInUsers() async throws {
        let rule = #"@request.auth.id != """#
        _ = try await send(
            "PATCH", "api/collections/books",
            ["listRule": rule, "viewRule": rule, "createRule": rule, "updateRule": rule, "deleteRule": rule],
            token: superuserToken())
    }

    /// A superuser's token, as an administrator signed in to the dashboard has: the superuser
    /// is made (or updated) with the binary's `superuser upsert`.
    func superuserToken() async throws -> String? {
        guard let binary = Self.binary else { throw PocketBaseFailure(description: "FETCHKIT_POCKETBASE is not set") }
        let upsert = try await ProgramRun.run(
            executable: URL(fileURLWithPath: binary),
            [
                "superuser", "upsert", "admin@example.com", "interop-admin-1", "--dir", folder.file("data").path,
                "--migrationsDir", folder.file("migrations").path, "--automigrate=false",
            ])
        guard upsert.status == 0 else { throw PocketBaseFailure(description: "superuser upsert: \(upsert)") }
        let admin = try await send(
            "POST", "api/collections/_superusers/auth-with-password",
            ["identity": "admin@example.com", "password": "interop-admin-1"])
        return admin["token"] as? String
    }

    /// Signs a new user up and in; the user's token.
    func signUp(_ email: String) async throws -> String {
        let password = "interop-user-1"
        _ = try await send(
            "POST", "api/collections/users/records",
            ["email": email, "password": password, "passwordConfirm": password])
        let signedIn = try await send(
            "POST", "api/collections/users/auth-with-password", ["identity": email, "password": password])
        guard let token = signedIn["token"] as? String else {
            throw PocketBaseFailure(description: "no token for \(email)")
        }
        return token
    }

    /// Every record of a collection (the books by default), as JSON objects (as a superuser when
    /// `token` is one); past 1,000 records, the 1,000 of `page`.
    func records(of collection: String = "books", token: String? = nil, page: Int = 1) async throws -> [[String: Any]] {
        var components = URLComponents(
            url: url.appendingPathComponent("api/collections/\(collection)/records"), resolvingAgainstBaseURL: false)
        components?.queryItems = [
            URLQueryItem(name: "perPage", value: "1000"), URLQueryItem(name: "skipTotal", value: "1"),
            URLQueryItem(name: "page", value: String(page)), URLQueryItem(name: "sort", value: "id"),
        ]
        guard let listURL = components?.url else { return [] }
        var request = URLRequest(url: listURL)
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        let (data, _) = try await URLSession.shared.data(for: request)
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        return object?["items"] as? [[String: Any]] ?? []
    }
}

/// booklab's sync against a real PocketBase: two libraries in two processes edit one
/// collection, one is killed mid-push, the server is killed and restarted mid-pull, and both
/// end equal to the server with every book once. Run by `.ci/run` as a step of its own, with
/// `FETCHKIT_POCKETBASE` set; without it (a machine without PocketBase) the suite does not run.
@Suite(
    .serialized,
    .enabled(if: PocketBaseServer.binary != nil, "set FETCHKIT_POCKETBASE to a PocketBase binary (.ci/run does)"))
struct PocketBaseInteropTests {
    struct Device {
        let store: URL
        let server: URL

        func run(_ arguments: String..., environment: [String: String?] = [:]) async throws -> ProgramRun {
            try await ProgramRun.run("booklab", ["--store", store.path] + arguments, environment: environment)
        }

        func sync() async throws -> ProgramRun { try await run("sync", "--server", server.absoluteString) }

        func list() async throws -> String { try await run("list").output }

        /// Adds results `numbers` of a search for `words`.
        func add(_ words: String, _ numbers: ClosedRange<Int>) async throws {
            let search = try await run("search", words)
            #expect(search.status == 0, "\(search)")
            for number in numbers {
                let added = try await run("add", String(number))
                #expect(added.status == 0, "\(added)")
            }
        }

        /// Starts a sync and returns its process, to kill it.
        func startSync() throws -> ChildProcess {
            try ChildProcess(
                executable: BuiltProducts.executable(named: "booklab"),
                ["--store", store.path, "sync", "--server", server.absoluteString])
        }

        /// Starts `sync --follow`, its output read as it comes.
        func follow() throws -> InterruptibleRun {
            try InterruptibleRun(
                "booklab", ["--store", store.path, "sync", "--server", server.absoluteString, "--follow"],
                environment: [:])
        }
    }

    /// The server's live books, each volume once, and the volumes that appear more than once.
    static func serverBooks(_ server: PocketBaseServer) async throws -> (live: Set<String>, doubled: [String]) {
        let records = try await server.records()
        var seen: [String: Int] = [:]
        for record in records { seen[record["volumeId"] as? String ?? "", default: 0] += 1 }
        let live = Set(records.filter { ($0["deleted"] as? Bool) != true }.compactMap { $0["volumeId"] as? String })
        return (live, seen.filter { $0.value > 1 }.map(\.key))
    }

    /// A library's listing without publication years: the server holds no publication date, so
    /// a book that came from the other device lists without its year.
    static func withoutYears(_ list: String) -> String {
        list.replacingOccurrences(of: #" \(\d{4}[^)]*\)"#, with: "", options: .regularExpression)
    }

    /// Both devices sync until neither has anything left to send, and list the same books; the
    /// number of books in them.
    @discardableResult
    static func converge(_ a: Device, _ b: Device) async throws -> Int {
        for device in [a, b, a] {
            let run = try await device.sync()
            #expect(run.status == 0, "\(run)")
        }
        let list = try await a.list()
        #expect(withoutYears(list) == withoutYears(try await b.list()))
        let count = list.split(separator: "\n").dropFirst().count
        return count
    }

    @Test func twoLibrariesConvergeThroughConflictsKillsAndAServerRestart() async throws {
        let server = try PocketBaseServer()
        defer { server.kill(); server.folder.remove() }
        try await server.start()
        let folder = try TemporaryDirectory(prefix: "Devices")
        defer { folder.remove() }
        let a = Device(store: folder.file("a.sqlite"), server: server.url)
        let b = Device(store: folder.file("b.sqlite"), server: server.url)

        // Two devices add books, two of them the same volumes.
        try await a.add("dune", 1...4)
        try await b.add("dune", 3...6)
        var count = try await Self.converge(a, b)
        var books = try await Self.serverBooks(server)
        #expect(books.doubled.isEmpty, "volumes created twice: \(books.doubled)")
        #expect(count == 6)
        #expect(books.live.count == count)

        // Two ratings of one book: the first to reach the server wins, the other device says so.
        _ = try await a.run("rate", "1", "5")
        _ = try await b.run("rate", "1", "2")
        #expect(try await a.sync().status == 0)
        let lost = try await b.sync()
        #expect(lost.status == 0)
        #expect(lost.output.contains("lost to another device's (5 of 5)"), "\(lost)")
        try await Self.converge(a, b)
        #expect(try await b.list().contains("★★★★★"))

        // A sync killed (SIGKILL) while it sends: the next one sends the rest, each book once.
        try await a.add("unreal engine", 1...30)
        let before = try await server.records().count
        let killed = try a.startSync()
        let clock = ContinuousClock()
        let deadline = clock.now + Patience.hang
        while killed.isRunning, clock.now < deadline, try await server.records().count == before {
            try await Task.sleep(for: .milliseconds(2))
        }
        _ = await killed.kill()
        count = try await Self.converge(a, b)
        books = try await Self.serverBooks(server)
        #expect(books.doubled.isEmpty, "volumes created twice: \(books.doubled)")
        #expect(count > 6)
        #expect(books.live.count == count)

        // The server killed while a library pulls: that sync fails with one line, the next converges.
        try await a.add("tolkien", 1...5)
        #expect(try await a.sync().status == 0)
        let pulling = try b.startSync()
        server.kill()
        _ = await pulling.exit()
        let failed = try await b.sync()
        #expect(failed.status != 0)
        #expect(failed.errorOutput.contains("cannot reach the sync server"), "\(failed)")
        #expect(failed.errorOutput.split(separator: "\n").count == 1, "\(failed)")
        try await server.start()
        count = try await Self.converge(a, b)
        books = try await Self.serverBooks(server)
        #expect(books.doubled.isEmpty)
        #expect(books.live.count == count)

        // A removal reaches the other library and never comes back.
        let removed = try await a.run("remove", "1")
        #expect(removed.status == 0)
        #expect(try await Self.converge(a, b) == count - 1)
        #expect(try await Self.converge(a, b) == count - 1)
        #expect(try await Self.serverBooks(server).live.count == count - 1)
    }

    /// A Ctrl-C (SIGINT) during a plain sync, as soon as the server holds a first new book: the
    /// sync stops, and the next one sends the rest, each book once.
    @Test func aSyncInterruptedWithCtrlCLosesAndDoublesNothing() async throws {
        let server = try PocketBaseServer()
        defer { server.kill(); server.folder.remove() }
        try await server.start()
        let folder = try TemporaryDirectory(prefix: "CtrlC")
        defer { folder.remove() }
        let a = Device(store: folder.file("a.sqlite"), server: server.url)
        let b = Device(store: folder.file("b.sqlite"), server: server.url)
        try await a.add("unreal engine", 1...20)
        let interrupted = try a.startSync()
        let clock = ContinuousClock()
        let deadline = clock.now + Patience.hang
        while interrupted.isRunning, clock.now < deadline, try await server.records().isEmpty {
            try await Task.sleep(for: .milliseconds(2))
        }
        interrupted.send(SIGINT)
        _ = await interrupted.exit()
        let count = try await Self.converge(a, b)
        #expect(count == 20)
        let books = try await Self.serverBooks(server)
        #expect(books.doubled.isEmpty, "volumes created twice: \(books.doubled)")
        #expect(books.live.count == count)
    }

    /// A record another client deleted outright (no tombstone: PocketBase keeps none) is found by
    /// the identity listing, leaves both libraries at their next sync, and is never created again.
    @Test func aBookDeletedOutrightOnTheServerLeavesEveryLibrary() async throws {
        let server = try PocketBaseServer()
        defer { server.kill(); server.folder.remove() }
        try await server.start()
        let folder = try TemporaryDirectory(prefix: "HardDelete")
        defer { folder.remove() }
        let a = Device(store: folder.file("a.sqlite"), server: server.url)
        let b = Device(store: folder.file("b.sqlite"), server: server.url)
        try await a.add("dune", 1...3)
        let count = try await Self.converge(a, b)
        #expect(count == 3)
        let victim = try #require(try await server.records().first)
        let volume = try #require(victim["volumeId"] as? String)
        try await server.deleteRecord(try #require(victim["id"] as? String))
        #expect(try await Self.converge(a, b) == count - 1)
        #expect(try await Self.converge(a, b) == count - 1)
        let left = try await server.records()
        #expect(left.count == count - 1)
        #expect(!left.contains { $0["volumeId"] as? String == volume })
    }

    /// `--follow`: a library kept in step on PocketBase's realtime hints, through a server
    /// restart (the event stream reconnects, and a reconnection is itself a hint).
    @Test func followKeepsALibraryInStepOnRealtimeHintsAcrossAServerRestart() async throws {
        let server = try PocketBaseServer()
        defer { server.kill(); server.folder.remove() }
        try await server.start()
        let folder = try TemporaryDirectory(prefix: "Follow")
        defer { folder.remove() }
        let a = Device(store: folder.file("a.sqlite"), server: server.url)
        let b = Device(store: folder.file("b.sqlite"), server: server.url)

        let following = try b.follow()
        #expect(await following.waitForOutput(containing: "for changes (Ctrl-C stops)", timeout: Patience.hang))
        try await a.add("dune", 1...2)
        #expect(try await a.sync().status == 0)
        // No sync of b's own: the hint brings the two books.
        #expect(
            await following.waitForOutput(containing: "pulled 2 books", timeout: Patience.hang), "\(following.printed)")
        #expect(try await b.list().contains("Dune Messiah"))

        // The server goes away and comes back; the follower reconnects and keeps following.
        server.kill()
        try await server.start()
        _ = try await a.run("remove", "1")
        #expect(try await a.sync().status == 0)
        #expect(
            await following.waitForOutput(containing: "1 removed elsewhere", timeout: Patience.hang),
            "\(following.printed)")
        #expect(Self.withoutYears(try await b.list()) == Self.withoutYears(try await a.list()))

        following.interrupt()
        let end = await following.finish(timeout: Patience.hang)
        #expect(end.status == 130, "\(end)")
        #expect(end.errorOutput.contains("interrupted; every change not yet sent stays queued"), "\(end)")
    }

    /// `--token`: the books collection needs a signed-in user. A guest's changes are refused and
    /// kept; with the token they go through; a library that synced signed in refuses to sync as
    /// a guest (PocketBase would show it an empty collection, and the books would go); a token the
    /// server refuses stops the sync. The token is never printed.
    @Test func aCollectionThatNeedsAUserSyncsWithATokenAndNeverAsAGuest() async throws {
        let server = try PocketBaseServer()
        defer { server.kill(); server.folder.remove() }
        try await server.start()
        try await server.requireSignedInUsers()
        let token = try await server.signUp("reader@example.com")
        let folder = try TemporaryDirectory(prefix: "Token")
        defer { folder.remove() }
        let a = Device(store: folder.file("a.sqlite"), server: server.url)
        let b = Device(store: folder.file("b.sqlite"), server: server.url)
        try await a.add("dune", 1...2)

        let guest = try await a.sync()
        #expect(guest.status == 1, "\(guest)")
        #expect(guest.errorOutput.contains("if the books collection needs a signed-in user, pass --token"), "\(guest)")
        #expect(try await server.records(token: token).isEmpty)

        let signedIn = try await a.run("sync", "--server", server.url.absoluteString, "--token", token)
        #expect(signedIn.status == 0, "\(signedIn)")
        #expect(signedIn.output.contains("pushed 2 changes"), "\(signedIn)")
        #expect(try await server.records(token: token).count == 2)

        let again = try await a.sync()
        #expect(again.status == 1, "\(again)")
        #expect(again.errorOutput.contains("as a signed-in user"), "\(again)")
        #expect(try await a.list().contains("Dune Messiah"), "the guest's sync must not empty the library")

        let fromEnvironment = try await b.run(
            "sync", "--server", server.url.absoluteString, environment: ["BOOKLAB_SYNC_TOKEN": token])
        #expect(fromEnvironment.status == 0, "\(fromEnvironment)")
        #expect(fromEnvironment.output.contains("pulled 2 books"), "\(fromEnvironment)")

        let parts = token.split(separator: ".")
        let forged = "\(parts[0]).\(parts[1]).\(String(parts[2].reversed()))"
        let refused = try await b.run("sync", "--server", server.url.absoluteString, "--token", forged)
        #expect(refused.status == 1, "\(refused)")
        #expect(refused.errorOutput.contains("refused the token"), "\(refused)")

        for run in [guest, signedIn, again, fromEnvironment, refused] {
            #expect(
                !run.output.contains(parts[2]) && !run.errorOutput.contains(parts[2]), "the token was printed: \(run)")
        }
    }

    /// Another client stores a different volume with an ISBN a library already holds: the pull
    /// stores it beside the library's book, and the sync goes on (the ISBN was a unique key of
    /// the library, and that page was refused at every sync).
    @Test func anotherVolumeOfAnISBNTheLibraryHoldsIsPulledBesideIt() async throws {
        let server = try PocketBaseServer()
        defer { server.kill(); server.folder.remove() }
        try await server.start()
        let folder = try TemporaryDirectory(prefix: "ISBN")
        defer { folder.remove() }
        let a = Device(store: folder.file("a.sqlite"), server: server.url)
        try await a.add("dune", 1...1)
        #expect(try await a.sync().status == 0)
        let record = try #require(try await server.records().first)
        let isbn = try #require(record["isbn13"] as? String)
        _ = try await server.send(
            "POST", "api/collections/books/records",
            [
                "volumeId": "anotherEdition1", "title": "Dune (another edition)", "authors": ["Frank Herbert"],
                "isbn13": isbn, "rating": 0, "addedAt": "2026-11-25 08:00:00.000Z", "deleted": false,
            ])
        for _ in 0..<2 {
            let run = try await a.sync()
            #expect(run.status == 0, "\(run)")
        }
        let list = try await a.list()
        #expect(list.contains("Dune (another edition)"), "\(list)")
        #expect(list.components(separatedBy: "ISBN \(isbn)").count == 3, "\(list)")
    }

    /// Creates a book on the server as another client would (the admin UI, a script): PocketBase
    /// chooses the record's id. Returns it.
    static func createElsewhere(_ server: PocketBaseServer, volume: String, title: String) async throws -> String {
        let created = try await server.send(
            "POST", "api/collections/books/records",
            [
                "volumeId": volume, "title": title, "authors": ["Ann Other"], "isbn13": "", "rating": 0,
                "addedAt": "2026-11-25 08:00:00.000Z", "deleted": false,
            ])
        return try #require(created["id"] as? String)
    }

    /// The server's records of the books collection with this id (one, or none once deleted).
    static func record(_ id: String, on server: PocketBaseServer) async throws -> [[String: Any]] {
        try await server.records().filter { $0["id"] as? String == id }
    }

    /// A book another client created is rated on one library, rated differently on two (the
    /// documented rule decides, the losing library says so, all three agree), then removed on
    /// one: every change lands on the record the other client created, and no second record of
    /// the volume is ever made.
    @Test func aBookAnotherClientCreatedIsRatedAndRemovedFromBothLibraries() async throws {
        let server = try PocketBaseServer()
        defer { server.kill(); server.folder.remove() }
        try await server.start()
        let folder = try TemporaryDirectory(prefix: "Elsewhere")
        defer { folder.remove() }
        let a = Device(store: folder.file("a.sqlite"), server: server.url)
        let b = Device(store: folder.file("b.sqlite"), server: server.url)
        let id = try await Self.createElsewhere(server, volume: "elsewhere00001", title: "A Book From Elsewhere")
        #expect(try await Self.converge(a, b) == 1)

        #expect(try await a.run("rate", "1", "4").status == 0)
        let rated = try await a.sync()
        #expect(rated.status == 0, "\(rated)")
        #expect(rated.output.contains("pushed 1 change"), "\(rated)")
        #expect(try await Self.record(id, on: server).first?["rating"] as? Double == 4)
        try await Self.converge(a, b)
        let listed = try await b.list()
        #expect(listed.contains("★★★★☆"), "\(listed)")

        // Rated 5 on one library and 2 on the other: the first to reach the server wins.
        #expect(try await a.run("rate", "1", "5").status == 0)
        #expect(try await b.run("rate", "1", "2").status == 0)
        #expect(try await a.sync().status == 0)
        let lost = try await b.sync()
        #expect(lost.status == 0, "\(lost)")
        #expect(lost.output.contains("lost to another device's (5 of 5)"), "\(lost)")
        try await Self.converge(a, b)
        #expect(try await Self.record(id, on: server).first?["rating"] as? Double == 5)
        #expect(try await a.list().contains("★★★★★"))
        #expect(try await b.list().contains("★★★★★"))

        // Removed on the other library: gone from both, and from the server's live records.
        #expect(try await b.run("remove", "1").status == 0)
        #expect(try await Self.converge(a, b) == 0)
        #expect(try await Self.converge(a, b) == 0)
        let records = try await server.records()
        #expect(records.count == 1, "a second record of the volume was made: \(records)")
        #expect(records.first?["id"] as? String == id)
        #expect(records.first?["deleted"] as? Bool == true)
    }

    /// A library rates a book offline while another client deletes its record outright: the
    /// rating meets a record that is gone (a `404` a read confirms), the rule decides (a removal
    /// wins), and neither library creates the book again.
    @Test func aBookRatedOfflineWhileDeletedElsewhereIsNotCreatedAgain() async throws {
        let server = try PocketBaseServer()
        defer { server.kill(); server.folder.remove() }
        try await server.start()
        let folder = try TemporaryDirectory(prefix: "OfflineEdit")
        defer { folder.remove() }
        let a = Device(store: folder.file("a.sqlite"), server: server.url)
        let b = Device(store: folder.file("b.sqlite"), server: server.url)
        let id = try await Self.createElsewhere(server, volume: "elsewhere00002", title: "A Doomed Book")
        #expect(try await Self.converge(a, b) == 1)
        #expect(try await a.run("rate", "1", "3").status == 0)
        try await server.deleteRecord(id)
        let run = try await a.sync()
        #expect(run.status == 0, "\(run)")
        #expect(try await Self.converge(a, b) == 0)
        #expect(try await server.records().isEmpty)
    }

    /// A rating whose answer is lost on the way back (PocketBase applied it; a proxy closes the
    /// connection before the answer), then another rating: the second lands on the server and
    /// both libraries, and the library never takes its own first rating for another device's.
    @Test func anEditWhoseAnswerIsLostThenAnotherEditEndsOnTheServer() async throws {
        let server = try PocketBaseServer()
        defer { server.kill(); server.folder.remove() }
        try await server.start()
        let proxy = try DroppingProxy(to: server.port)
        defer { proxy.stop() }
        let folder = try TemporaryDirectory(prefix: "LostAnswer")
        defer { folder.remove() }
        let a = Device(store: folder.file("a.sqlite"), server: proxy.url)
        let b = Device(store: folder.file("b.sqlite"), server: server.url)
        try await a.add("dune", 1...1)
        #expect(try await Self.converge(a, b) == 1)
        let id = try #require(try await server.records().first?["id"] as? String)

        #expect(try await a.run("rate", "1", "3").status == 0)
        proxy.dropNextAnswer(to: "PATCH")
        let lost = try await a.sync()
        #expect(proxy.dropped == 1)
        #expect(try await Self.record(id, on: server).first?["rating"] as? Double == 3, "\(lost)")

        #expect(try await a.run("rate", "1", "5").status == 0)
        let next = try await a.sync()
        #expect(next.status == 0, "\(next)")
        #expect(!next.output.contains("lost to another device"), "\(next)")
        try await Self.converge(a, b)
        #expect(try await Self.record(id, on: server).first?["rating"] as? Double == 5)
        #expect(try await a.list().contains("★★★★★"))
        #expect(try await b.list().contains("★★★★★"))
        #expect(try await server.records().count == 1)
    }

    /// Two syncs of one library at once (two processes): each ends in success or one clear line,
    /// and after the next sync the server holds every book once and the library equals it.
    @Test func twoSyncsOfOneLibraryAtOnceDoubleNothing() async throws {
        let server = try PocketBaseServer()
        defer { server.kill(); server.folder.remove() }
        try await server.start()
        let folder = try TemporaryDirectory(prefix: "TwoAtOnce")
        defer { folder.remove() }
        let a = Device(store: folder.file("a.sqlite"), server: server.url)
        try await a.add("unreal engine", 1...20)
        async let first = a.sync()
        async let second = a.sync()
        for run in try await [first, second] {
            #expect(run.status == 0 || run.errorOutput.split(separator: "\n").count == 1, "\(run)")
        }
        #expect(try await a.sync().status == 0)
        let books = try await Self.serverBooks(server)
        #expect(books.doubled.isEmpty, "volumes created twice: \(books.doubled)")
        #expect(books.live.count == 20)
        #expect(try await a.list().split(separator: "\n").dropFirst().count == 20)
    }
}

/// The PocketBase server could not be used.
struct PocketBaseFailure: Error, CustomStringConvertible {
    var description: String
}
