import Foundation
import Persistence
import Testing

/// `PersistenceError` has the package's one error shape: a `code` matched with `~=`, read-only
/// facts, and a one-line description whatever the message holds.
@Suite struct ErrorShapeTests {
    @Test func aCodeMatchesInACatchClauseAndInASwitch() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        try store.context.persistAndWait { tx in try tx.insert(Book(id: "b1", title: "Dune")) }
        var matched = "none"
        do {
            try store.context.persistAndWait { tx in try tx.insert(Book(id: "b1", title: "Dune again")) }
        } catch PersistenceError.Code.busy {
            matched = "busy"
        } catch PersistenceError.Code.uniqueKeyViolation {
            matched = "uniqueKeyViolation"
        } catch {
            matched = "other: \(error)"
        }
        #expect(matched == "uniqueKeyViolation")
        let untyped: any Error = CancellationError()
        #expect(!(PersistenceError.Code.uniqueKeyViolation ~= untyped))
    }

    @Test func aMultiLineStatementStillGivesAOneLineDescription() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let error = #expect(throws: PersistenceError.self) {
            try store.context.persistAndWait { tx in
                try tx.execute("UPDATE \"Book\"\nSET nonexistent = 1\r\nWHERE id = 'b1'")
            }
        }
        let description = try #require(error?.description)
        #expect(description.allSatisfy { !$0.isNewline }, "\(description)")
        let code = try #require(error?.code)
        #expect(description.hasPrefix("PersistenceError.\(code): "))
        #expect(description.contains("nonexistent"))
        #expect(error?.message.contains("\n") == true, "the message itself keeps the statement as written")
    }
}
