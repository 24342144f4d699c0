import FetchKit
import Foundation
import Locking
import Persistence
import Sync
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// A device's library sync (the `authors` and `novels` group) in a child process (`SyncWorker
// library`), killed with SIGKILL by the proxy in front of a real PocketBase: mid-push, after the
// server created a novel and before its answer; and mid-pull, once the server answered a new
// scope's second page and before the answer reached the device.

extension PocketBaseInteropTests {
    /// Both kills end in the same state as a run never killed: every record on the server once,
    /// the device's rows those of its scope with every novel's author, nothing left queued.
    @Test func aDeviceKilledMidPushAndMidScopedPullConverges() async throws {
        let server = try PocketBaseServer()
        defer { server.kill(); server.folder.remove() }
        try await server.start()
        let reader = try await Reader("killed@example.com", on: server)
        let token = try await reader.signIn()
        _ = try await server.send(
            "POST", "api/collections/authors/records", ["id": "leguin000000001", "name": "Ursula K. Le Guin"],
            token: token)
        for number in 1...3 {
            _ = try await server.send(
                "POST", "api/collections/novels/records",
                ["id": String(format: "hainish%08d", number), "title": "Hainish \(number)", "author": "leguin000000001"],
                token: token)
        }
        let proxy = try DroppingProxy(to: server.port)
        defer { proxy.stop() }
        let folder = try TemporaryDirectory(prefix: "LibraryKills")
        defer { folder.remove() }
        let file = folder.file("device.sqlite")

        // The device queues a new author with two novels, in one block.
        do {
            let (store, authors, novels, _) = try LibrarySample.openLibrary(
                at: file, server: proxy.url, client: reader.client())
            defer { store.close() }
            try await store.context.persist { tx in
                try authors.save(.init(id: "jemisin00000001", name: "N. K. Jemisin"), in: tx)
                for (id, title) in [("fifth0000000001", "The Fifth Season"), ("obelisk00000001", "The Obelisk Gate")] {
                    try novels.save(.init(id: id, title: title, author: "jemisin00000001"), in: tx)
                }
            }
        }

        // Killed once PocketBase has created the first novel, before its answer comes back.
        let killed = try await Self.runDevice(file, through: proxy, token: token) { line in
            line.hasPrefix("POST /api/collections/novels/records")
        }
        #expect(killed?.signalled == true && killed?.status == SIGKILL, "\(String(describing: killed))")
        let resumed = try await Self.runDevice(file, through: proxy, token: token)
        #expect(resumed == .init(status: 0, signalled: false))
        #expect(try Self.deviceRows(file, server: proxy.url, client: reader.client()).2 == 0)
        let titles = try await Self.serverField("title", of: "novels", on: server, as: reader)
        #expect(titles["fifth0000000001"] == "The Fifth Season" && titles["obelisk00000001"] == "The Obelisk Gate")
        #expect(titles.count == 5)
        #expect(try await Self.serverField("name", of: "authors", on: server, as: reader).count == 2)

        // Another client adds novels; the device narrows its novels to Le Guin's. Its first pull
        // of the scope is killed at the second page, its answer never read.
        for number in 4...7 {
            _ = try await server.send(
                "POST", "api/collections/novels/records",
                ["id": String(format: "hainish%08d", number), "title": "Hainish \(number)", "author": "leguin000000001"],
                token: token)
        }
        do {
            let (store, _, novels, _) = try LibrarySample.openLibrary(at: file, server: proxy.url, client: reader.client())
            defer { store.close() }
            try await novels.scope(to: [SyncScope("by", parameters: ["filter": "author = 'leguin000000001'"])])
        }
        let killedInPull = try await Self.runDevice(file, through: proxy, token: token) { line in
            guard line.hasPrefix("GET /api/collections/novels/records?"),
                let target = line.split(separator: " ").dropFirst().first,
                let filter = URLComponents(string: String(target))?.queryItems?.first(where: { $0.name == "filter" })?.value
            else { return false }
            return filter.contains("leguin000000001") && filter.contains("updated >")
        }
        #expect(killedInPull?.signalled == true, "\(String(describing: killedInPull))")
        // A walk killed before its end prunes nothing: the novels outside the scope are still here.
        let (_, partial, _) = try Self.deviceRows(file, server: proxy.url, client: reader.client())
        #expect(partial.contains("fifth0000000001") && partial.contains("obelisk00000001"), "\(partial)")
        let finished = try await Self.runDevice(file, through: proxy, token: token)
        #expect(finished == .init(status: 0, signalled: false))

        let (authors, novels, waiting) = try Self.deviceRows(file, server: proxy.url, client: reader.client())
        #expect(waiting == 0)
        #expect(novels == (1...7).map { String(format: "hainish%08d", $0) })
        // Authors are pulled whole; the scope's novels left Jemisin's behind.
        #expect(authors == ["jemisin00000001", "leguin000000001"])
        #expect(try await Self.serverField("title", of: "novels", on: server, as: reader).count == 9)
        #expect(proxy.sprung == 2)
    }

    /// Runs one sync of the device's library in a `SyncWorker` child through the proxy; with
    /// `killAt`, the child is killed (SIGKILL) at the first request whose first line matches,
    /// once the server has answered it and before the answer reaches the child.
    static func runDevice(
        _ file: URL, through proxy: DroppingProxy, token: String,
        killAt: (@Sendable (String) -> Bool)? = nil
    ) async throws -> ChildProcess.Termination? {
        let child = Locked<ChildProcess?>(nil)
        if let killAt {
            proxy.trap(killAt) {
                // The child is set right after the spawn, before it can send anything.
                guard let process = child.current else { return }
                process.send(SIGKILL)
                _ = process.waitBlocking()
            }
        }
        // A trap that did not spring stays out of the next run.
        defer { proxy.disarm() }
        let process = try ChildProcess(
            executable: BuiltProducts.executable(named: "SyncWorker"),
            ["library", file.path, proxy.url.absoluteString],
            environment: ChildProcess.environment(changing: ["SYNC_WORKER_TOKEN": token]))
        child.withLock { $0 = process }
        return await process.exit(timeout: Patience.hang)
    }

    /// The device's authors and novels, by id, and how many writes wait in its outbox.
    static func deviceRows(_ file: URL, server: URL, client: FetchClient) throws -> ([String], [String], Int) {
        let (store, _, _, _) = try LibrarySample.openLibrary(at: file, server: server, client: client)
        defer { store.close() }
        return try store.context.readAndWait { tx in
            (
                try tx.fetch(Query<LibrarySample.Author>()).map(\.id).sorted(),
                try tx.fetch(Query<LibrarySample.Novel>()).map(\.id).sorted(),
                try tx.count(Query<PendingWrite>())
            )
        }
    }
}
