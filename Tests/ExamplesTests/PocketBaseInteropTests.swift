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
    private let process = Locked<Process?>(nil)

    var url: URL { URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/") }

    init() throws {
        folder = try TemporaryDirectory(prefix: "PocketBase")
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        // A copy: a server that changes a collection writes migration files into its folder.
        try FileManager.default.copyItem(
            at: root.appendingPathComponent("Interop/PocketBase/pb_migrations"), to: folder.file("migrations"))
        port = 20_000 + Int.random(in: 0..<20_000)
    }

    /// Starts the server (again, on the same folder and port) and waits until it answers.
    func start() async throws {
        guard let binary = Self.binary else { throw PocketBaseFailure(description: "FETCHKIT_POCKETBASE is not set") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = [
            "serve", "--http", "127.0.0.1:\(port)", "--dir", folder.file("data").path, "--migrationsDir",
            folder.file("migrations").path, "--automigrate=false",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process.withLock { $0 = process }
        let clock = ContinuousClock()
        let deadline = clock.now + Patience.hang
        while clock.now < deadline {
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
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Every record of the books collection, as JSON objects.
    func records() async throws -> [[String: Any]] {
        var components = URLComponents(url: url.appendingPathComponent("api/collections/books/records"), resolvingAgainstBaseURL: false)
        components?.queryItems = [URLQueryItem(name: "perPage", value: "1000"), URLQueryItem(name: "skipTotal", value: "1")]
        guard let listURL = components?.url else { return [] }
        let (data, _) = try await URLSession.shared.data(from: listURL)
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

        func run(_ arguments: String...) async throws -> ProgramRun {
            try await ProgramRun.run("booklab", ["--store", store.path] + arguments)
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
        func startSync() throws -> Process {
            let process = Process()
            process.executableURL = try BuiltProducts.executable(named: "booklab")
            process.arguments = ["--store", store.path, "sync", "--server", server.absoluteString]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            return process
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

    /// Both devices sync until neither has anything left to send, and list the same books; the
    /// number of books in them.
    @discardableResult
    static func converge(_ a: Device, _ b: Device) async throws -> Int {
        for device in [a, b, a] {
            let run = try await device.sync()
            #expect(run.status == 0, "\(run)")
        }
        // The server holds no publication date: a book that came from the other device lists
        // without its year.
        func synced(_ list: String) -> String {
            list.replacingOccurrences(of: #" \(\d{4}[^)]*\)"#, with: "", options: .regularExpression)
        }
        let list = try await a.list()
        #expect(synced(list) == synced(try await b.list()))
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
        Foundation.kill(killed.processIdentifier, SIGKILL)
        killed.waitUntilExit()
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
        pulling.waitUntilExit()
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
}

/// The PocketBase server could not be used.
struct PocketBaseFailure: Error, CustomStringConvertible {
    var description: String
}
