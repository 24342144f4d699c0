import ExampleSupport
import Foundation
import Observation
import Persistence

/// `booklab watch`: prints each change to the library as other booklab processes make it, with
/// the library's size and average rating, until Ctrl-C.
///
/// The books and the summary come from two ``LiveValue``s (a query, and an aggregate in
/// SQL), both `@Observable` on the main actor; the store checks for other processes' commits
/// (`externalCommitPolling`), so a `booklab add` in another terminal shows here within a
/// fraction of a second.
@MainActor struct LibraryMonitor {
    let library: Library

    /// Prints the library now, then every change, until the program is interrupted. Lines reach a
    /// pipe as they are printed.
    func run() async throws {
        Interrupts.keep("stopped watching; your library is unchanged")
        let books = LiveValue(.query(Query<LibraryBook>(sortedBy: LibraryBook.byTitle)), in: library.store)
        let summary = LiveValue(
            .value(tracking: LibraryBook.self) { tx in try Library.Summary.read(tx) }, in: library.store)
        let (failures, failed) = AsyncStream.makeStream(of: (any Error).self)
        // Each delivery is printed in its own callback, with the list it replaces: the callbacks run
        // on the main actor, one at a time, in delivery order.
        var shown: [LibraryBook]?
        books.onChange = {
            if let error = books.error {
                failed.yield(error)
                return
            }
            guard let change = books.value else { return }
            let changes = change.changes
            if let before = shown {
                for line in Self.lines(changes, before: before, after: change.results) { Terminal.say(line) }
            } else {
                Terminal.say("Watching your library for changes made by other booklab commands (Ctrl-C stops).")
            }
            shown = change.results
        }
        var shownSummary: Library.Summary?
        summary.onChange = {
            if let error = summary.error {
                failed.yield(error)
                return
            }
            guard let value = summary.value, value != shownSummary else { return }
            Terminal.say("Your library: \(value.text).")
            shownSummary = value
        }
        for await error in failures {
            throw ExampleFailure.store("cannot watch the library", error)
        }
    }

    /// One line per removed, added or changed book.
    static func lines(_ changes: ChangeSet, before: [LibraryBook], after: [LibraryBook]) -> [String] {
        var lines: [String] = []
        for index in changes.deleted where before.indices.contains(index) {
            lines.append("- removed: \(before[index].line)")
        }
        for index in changes.inserted where after.indices.contains(index) {
            lines.append("+ added: \(after[index].listLine)")
        }
        for index in changes.updated where after.indices.contains(index) {
            lines.append("~ changed: \(after[index].listLine)")
        }
        return lines
    }
}
