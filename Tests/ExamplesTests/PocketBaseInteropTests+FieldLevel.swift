import ExampleSupport
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// booklab on two devices against a real PocketBase: a change to one field never loses to a
/// change to another, and a removal elsewhere meets a local rating as a removal.
extension PocketBaseInteropTests {
    /// A rates a book and does not sync; B adds the same book again and syncs; an admin changes
    /// its title: A's rating survives both. Two real ratings follow the documented rule (the
    /// first to reach the server wins) and the losing device names both.
    @Test func aRatingSurvivesAReAddElsewhereAndAnAdminsTitleChange() async throws {
        let server = try PocketBaseServer()
        defer { server.kill(); server.folder.remove() }
        try await server.start()
        let folder = try TemporaryDirectory(prefix: "FieldLevel")
        defer { folder.remove() }
        let a = Device(store: folder.file("a.sqlite"), server: server.url)
        let b = Device(store: folder.file("b.sqlite"), server: server.url)
        try await a.add("dune", 1...1)
        #expect(try await Self.converge(a, b) == 1)
        let id = try #require(try await server.records().first?["id"] as? String)

        #expect(try await a.run("rate", "1", "4").status == 0)
        #expect(try await b.run("search", "dune").status == 0)
        let readded = try await b.run("add", "1")
        #expect(readded.output.contains("Already in your library, updated"), "\(readded)")
        #expect(try await b.sync().status == 0)
        let rated = try await a.sync()
        #expect(rated.status == 0, "\(rated)")
        #expect(!rated.output.contains("lost to another device"), "\(rated)")
        #expect(try await Self.record(id, on: server).first?["rating"] as? Double == 4)

        // An admin renames the book while A rates it again: both stand.
        let admin = try await server.superuserToken()
        _ = try await server.send(
            "PATCH", "api/collections/books/records/\(id)", ["title": "Dune (the admin's edition)"], token: admin)
        #expect(try await a.run("rate", "1", "5").status == 0)
        let again = try await a.sync()
        #expect(again.status == 0, "\(again)")
        #expect(!again.output.contains("lost to another device"), "\(again)")
        let record = try #require(try await Self.record(id, on: server).first)
        #expect(record["rating"] as? Double == 5)
        #expect(record["title"] as? String == "Dune (the admin's edition)")
        try await Self.converge(a, b)
        for device in [a, b] {
            let list = try await device.list()
            #expect(list.contains("Dune (the admin's edition)") && list.contains("★★★★★"), "\(list)")
        }

        // Both rate it: B reaches the server first; A's sync names both ratings.
        #expect(try await a.run("rate", "1", "2").status == 0)
        #expect(try await b.run("rate", "1", "3").status == 0)
        #expect(try await b.sync().status == 0)
        let lost = try await a.sync()
        #expect(lost.status == 0, "\(lost)")
        #expect(lost.output.contains("(2 of 5) lost to another device's (3 of 5)"), "\(lost)")
        try await Self.converge(a, b)
        #expect(try await Self.record(id, on: server).first?["rating"] as? Double == 3)
        for device in [a, b] {
            let list = try await device.list()
            #expect(list.contains("★★★☆☆"), "\(list)")
        }
    }

    /// A removes a book while B rates it, both offline; A syncs first. B's sync meets the removal
    /// as a removal (it says so, and refuses nothing), and every later sync goes through.
    @Test func aBookRemovedElsewhereWhileRatedHereLeavesWithoutARefusal() async throws {
        let server = try PocketBaseServer()
        defer { server.kill(); server.folder.remove() }
        try await server.start()
        let folder = try TemporaryDirectory(prefix: "RemovedElsewhere")
        defer { folder.remove() }
        let a = Device(store: folder.file("a.sqlite"), server: server.url)
        let b = Device(store: folder.file("b.sqlite"), server: server.url)
        try await a.add("dune", 1...2)
        #expect(try await Self.converge(a, b) == 2)

        #expect(try await a.run("remove", "1").status == 0)
        #expect(try await b.run("rate", "1", "4").status == 0)
        #expect(try await a.sync().status == 0)
        let met = try await b.sync()
        #expect(met.status == 0, "\(met)")
        #expect(met.output.contains("was removed from the library on another device"), "\(met)")
        #expect(!met.errorOutput.contains("refused"), "\(met)")
        for _ in 0..<2 {
            let next = try await b.sync()
            #expect(next.status == 0, "\(next)")
        }
        #expect(try await Self.converge(a, b) == 1)
        #expect(try await Self.serverBooks(server).live.count == 1)
        let changes = try await b.run("changes")
        #expect(changes.output.hasPrefix("No change to your library waits for the sync server."), "\(changes)")
    }
}
