import Foundation
import Persistence
import TestSupport
import Testing

/// `try await` with a trailing closure runs the `async` form of every callback/async twin, in a
/// function as in top-level code: it waits for the commit, returns the block's value and throws
/// the block's error. (The build treats warnings as errors, so a call that picked a callback form
/// would not compile: "no 'async' operations occur within 'await' expression".)
@Suite struct TwinSelectionTests {
    struct Note: StoredEntity, Equatable {
        var id: Int
        var text: String
        static let text = Field<Note, String>("text")
        static let uniqueKeys = [UniqueKey(text)]
    }

    @Test func inAFunctionTryAwaitPersistWaitsForItsCommitAndThrowsItsError() async throws {
        let fixture = try StoreFixture()
        let store = try fixture.open([Note.self])
        try await store.context.persist { tx in try tx.insert(Note(id: 1, text: "first")) }
        #expect(try store.context.readAndWait { try $0.count(Query<Note>()) } == 1)
        await #expect(throws: PersistenceError.self) {
            try await store.context.persist { tx in try tx.insert(Note(id: 2, text: "first")) }
        }
        let notes = try await store.context.read { tx in try tx.fetch(Query<Note>()) }
        #expect(notes == [Note(id: 1, text: "first")])
    }

    @Test func aWriteNobodyWaitsForIsSpelledWithCompletionNil() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open([Note.self])
        store.context.persist({ tx in try tx.insert(Note(id: 1, text: "queued")) }, completion: nil)
        store.context.waitUntilIdle()
        #expect(try store.context.readAndWait { try $0.count(Query<Note>()) } == 1)
    }

    @Test func inTopLevelCodeTryAwaitRunsTheAsyncFormOfEveryTwin() async throws {
        let directory = try TemporaryDirectory(prefix: "TwinSelectionTests")
        defer { directory.remove() }
        let run = try await ProgramRun.run("TopLevelTwins", [directory.file("notes.sqlite").path])
        #expect(run.status == 0, "\(run)")
        #expect(run.output.contains("ok: persist waits for its commit"), "\(run)")
        #expect(run.output.contains("ok: a failing persist throws its error"), "\(run)")
        #expect(run.output.contains("ok: read returns its block's value"), "\(run)")
        #expect(run.output.contains("ok: fetch returns the decoded value"), "\(run)")
        #expect(run.output.contains("ok: collect returns the summary"), "\(run)")
        #expect(run.output.contains("ok: run returns the report"), "\(run)")
        #expect(run.output.contains("ok: a download returns the finished file"), "\(run)")
        #expect(run.output.contains("ok: fetch of an endpoint with a response type returns its value"), "\(run)")
        #expect(run.output.contains("all twins ran their async form"), "\(run)")
    }
}
