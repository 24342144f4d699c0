import ExampleSupport
import Foundation
import TestSupport
import Testing

/// `booklab changes`: the changes not yet acknowledged by a sync server, seen and dropped
/// without one.
@Suite(.serialized) struct BookLabChangesTests {
    @Test func changesListsWhatWaitsAndDropPutsTheBookBackAsTheServerHadIt() async throws {
        let sandbox = try ExampleSandbox.bookLab()
        defer { sandbox.directory.remove() }
        let none = try await sandbox.run(["changes"])
        #expect(none.status == 0, "\(none)")
        #expect(none.output.hasPrefix("No change to your library waits for the sync server."), "\(none)")

        #expect(try await sandbox.run(["search", "dune"]).status == 0)
        #expect(try await sandbox.run(["add", "1"]).status == 0)
        #expect(try await sandbox.run(["add", "2"]).status == 0)
        let listed = try await sandbox.run(["changes"])
        #expect(listed.status == 0, "\(listed)")
        #expect(listed.lines.first == "2 changes not yet acknowledged by the sync server:", "\(listed)")
        #expect(listed.lines.contains("1. Dune — Frank Herbert (1965), added; waiting to be sent"), "\(listed)")
        #expect(listed.lines.contains { $0.hasPrefix("2. Dune Messiah — Frank Herbert") }, "\(listed)")
        #expect(listed.lines.last == "'booklab sync' sends them; 'booklab changes --drop <n>' drops one.", "\(listed)")

        // A create the server never had: dropped, the book leaves the library.
        let dropped = try await sandbox.run(["changes", "--drop", "2"])
        #expect(dropped.status == 0, "\(dropped)")
        #expect(dropped.lines.first?.hasPrefix("Dropped: Dune Messiah — Frank Herbert") == true, "\(dropped)")
        let list = try await sandbox.run(["list"])
        #expect(!list.output.contains("Dune Messiah"), "\(list)")
        #expect(list.output.contains("Dune — Frank Herbert"), "\(list)")

        let wrong = try await sandbox.run(["changes", "--drop", "7"])
        #expect(wrong.status == 2, "\(wrong)")
        #expect(wrong.errorOutput.hasPrefix("booklab: there is no change 7; give a number from 1 to 1"), "\(wrong)")
        let notANumber = try await sandbox.run(["changes", "--drop", "first"])
        #expect(notANumber.status == 2, "\(notANumber)")
    }
}
