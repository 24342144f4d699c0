import Foundation
package import NotesAPI

/// What the notes server holds and counts, shared by its handlers and the test that drives it.
/// `@unchecked Sendable`: every stored property is read and written under `lock` only.
package final class NotesState: @unchecked Sendable {
    private let lock = NSLock()
    private var notes: [Components.Schemas.Note] = []
    private var token: String
    private var counts: [String: Int] = [:]
    private var faults: [String: [Fault]] = [:]
    private var gate: (pauseAfter: Int, waiting: CheckedContinuation<Void, Never>?, opened: Bool)?

    /// A scripted answer to an operation's next call: a status and header fields, no body; or,
    /// with no status, a call held (before its handler runs) until ``openGate()`` or 30 seconds.
    package struct Fault: Sendable {
        package var status: Int?
        package var headers: [String: String]

        /// - Parameters:
        ///   - status: the status to answer with; `nil` to hold the call at the gate.
        ///   - headers: header fields to send with it.
        package init(status: Int?, headers: [String: String] = [:]) {
            self.status = status
            self.headers = headers
        }
    }

    /// - Parameter token: the bearer token `createNote` accepts at first.
    package init(token: String) {
        self.token = token
    }

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// The notes, newest first, and the list's version (its ETag).
    package var list: (notes: [Components.Schemas.Note], version: Int) {
        locked { (notes.reversed(), notes.count) }
    }

    /// Stores a note and returns it with its new ID.
    package func add(_ new: Components.Schemas.NewNote) -> Components.Schemas.Note {
        locked {
            let note = Components.Schemas.Note(id: "n\(notes.count + 1)", title: new.title, body: new.body ?? "")
            notes.append(note)
            return note
        }
    }

    /// The note with `id`, if any.
    package func note(_ id: String) -> Components.Schemas.Note? {
        locked { notes.first { $0.id == id } }
    }

    /// The token `createNote` accepts now.
    package var acceptedToken: String {
        get { locked { token } }
        set { locked { token = newValue } }
    }

    /// Counts one occurrence of `event` (an operation's answer, such as `"listNotes 304"`).
    package func count(_ event: String) {
        locked { counts[event, default: 0] += 1 }
    }

    /// How many times `event` happened.
    package func count(of event: String) -> Int {
        locked { counts[event, default: 0] }
    }

    /// Scripts the next calls of `operationID` to be answered with `faults`, in order.
    package func script(_ operationID: String, _ faults: Fault...) {
        locked { self.faults[operationID, default: []].append(contentsOf: faults) }
    }

    /// The scripted answer to this call of `operationID`, if one is left.
    package func takeFault(_ operationID: String) -> Fault? {
        locked { faults[operationID]?.isEmpty == false ? faults[operationID]?.removeFirst() : nil }
    }

    /// Makes the next event stream wait after `count` events, or a held call wait (`count` 0),
    /// until ``openGate()`` (or 30 seconds).
    package func pauseEvents(after count: Int) {
        locked { gate = (count, nil, false) }
    }

    /// Lets a paused event stream go on; `true` when one was waiting.
    @discardableResult
    package func openGate() -> Bool {
        let waiting: CheckedContinuation<Void, Never>? = locked {
            let waiting = gate?.waiting
            gate?.waiting = nil
            gate?.opened = true
            return waiting
        }
        waiting?.resume()
        return waiting != nil
    }

    /// Whether a stream paused after its `sent`th event was let go by ``openGate()``.
    package var gateOpened: Bool { locked { gate?.opened ?? false } }

    /// Waits at the gate when `sent` events have gone out and the stream is to pause there.
    func passGate(sent: Int) async {
        let pause = locked { gate.map { $0.pauseAfter == sent && !$0.opened } ?? false }
        guard pause else { return }
        let timeout = Task { [weak self] in
            try await Task.sleep(for: .seconds(30))
            self?.releaseWithoutOpening()
        }
        await withCheckedContinuation { continuation in
            let open = locked {
                if gate?.opened == true { return true }
                gate?.waiting = continuation
                return false
            }
            if open { continuation.resume() }
        }
        timeout.cancel()
    }

    /// Lets the stream go on after 30 seconds unopened, counted as `"gate timed out"`: a client
    /// that reads only once the whole body has arrived never opens it.
    private func releaseWithoutOpening() {
        let waiting: CheckedContinuation<Void, Never>? = locked {
            let waiting = gate?.waiting
            gate?.waiting = nil
            return waiting
        }
        if waiting != nil { count("gate timed out") }
        waiting?.resume()
    }
}
