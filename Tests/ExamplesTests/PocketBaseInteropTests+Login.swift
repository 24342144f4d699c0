import Foundation
import TestSupport
import Testing

extension PocketBaseInteropTests {
    /// booklab's `login` and `logout` on one computer: Alice adds books and signs out keeping
    /// them; Bob signs in to a library of his own, syncs with his token, and cannot sync with
    /// Alice's; Alice returns to her books, and her changes go out at her sync; a sign-out keeping
    /// only the changes not yet sent keeps them, and the next sync brings the rest back.
    @Test func booklabKeepsALibraryPerUserAndSendsEachUsersChangesWithTheirToken() async throws {
        let server = try PocketBaseServer()
        defer { server.kill(); server.folder.remove() }
        try await server.start()
        let folder = try TemporaryDirectory(prefix: "BookLabLogin")
        defer { folder.remove() }
        let device = Device(store: folder.file("booklab.sqlite"), server: server.url)
        let alice = try await Reader("alice@example.com", on: server)
        let bob = try await Reader("bob@example.com", on: server)
        let aliceToken = try await alice.signIn()
        let bobToken = try await bob.signIn()
        let address = server.url.absoluteString

        var run = try await device.run("login", "--server", address, "--token", aliceToken)
        #expect(run.status == 0, "\(run)")
        #expect(run.output.contains("Signed in as alice@example.com (user \(alice.id))"), "\(run)")
        try await device.add("tolkien", 1...2)
        run = try await device.run("logout")
        #expect(run.output.contains("2 changes not yet sent"), "\(run)")

        // Bob's library is his own; his sync sends his book only, and Alice's token is refused.
        run = try await device.run("login", "--server", address, "--token", bobToken)
        #expect(run.output.contains("(0 books)"), "\(run)")
        try await device.add("dune", 1...1)
        run = try await device.run("sync", "--server", address, "--token", bobToken)
        #expect(run.status == 0, "\(run)")
        #expect(run.output.contains("pushed 1 change"), "\(run)")
        #expect(try await Self.serverBooks(server).live.count == 1)
        run = try await device.run("sync", "--server", address, "--token", aliceToken)
        #expect(run.status != 0)
        #expect(run.errorOutput.contains("the token is not \(bob.id)'s"), "\(run)")
        run = try await device.run("login", "--server", address, "--token", aliceToken)
        #expect(run.status != 0)
        #expect(run.errorOutput.contains("\(bob.id) is signed in"), "\(run)")
        run = try await device.run("logout", "--keep", "nothing")
        #expect(run.output.contains("removed the library from this computer"), "\(run)")

        // Alice returns to her two books; her sync sends them with her token.
        run = try await device.run("login", "--server", address, "--token", aliceToken)
        #expect(run.output.contains("(2 books, 2 changes not yet sent)"), "\(run)")
        run = try await device.run("sync", "--server", address, "--token", aliceToken)
        #expect(run.status == 0, "\(run)")
        #expect(run.output.contains("pushed 2 changes, pulled 1 book"), "\(run)")
        #expect(try await Self.serverBooks(server).live.count == 3)

        // Keeping only the changes not yet sent: the rated book stays, and so does the other book
        // added here (its summary and cover exist only on this computer); Bob's book, pulled, goes
        // until the next sync.
        run = try await device.run("rate", "2", "5")  // a book added here: 1 is Bob's Dune
        #expect(run.status == 0, "\(run)")
        run = try await device.run("logout", "--keep", "changes")
        #expect(run.output.contains("Kept the 1 change not yet sent"), "\(run)")
        #expect(run.output.contains("removed 1 synced book."), "\(run)")
        run = try await device.run("login", "--server", address, "--token", aliceToken)
        #expect(run.output.contains("(2 books, ") && run.output.contains(", 1 change not yet sent)"), "\(run)")
        run = try await device.run("sync", "--server", address, "--token", aliceToken)
        #expect(run.status == 0, "\(run)")
        let list = try await device.list()
        #expect(list.contains("★★★★★"), "\(list)")
        #expect(list.split(separator: "\n").count == 4, "\(list)")
        run = try await device.run("logout")
        #expect(run.status == 0, "\(run)")
        // No token is written anywhere on disk.
        for file in try FileManager.default.subpathsOfDirectory(atPath: folder.url.path) {
            let contents = (try? Data(contentsOf: folder.url.appending(path: file))) ?? Data()
            for token in [aliceToken, bobToken] { #expect(contents.range(of: Data(token.utf8)) == nil, "\(file)") }
        }
    }
}
