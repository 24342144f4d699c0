import Foundation
import HTTPTypes
import NotesAPI
import OpenAPIRuntime

/// The notes API, implemented over ``NotesState``.
struct NotesService: APIProtocol {
    let state: NotesState

    func listNotes(_ input: Operations.ListNotes.Input) async throws -> Operations.ListNotes.Output {
        let (notes, version) = state.list
        let etag = "\"v\(version)\""
        if input.headers.ifNoneMatch == etag {
            state.count("listNotes 304")
            return .notModified(.init(headers: .init(eTag: etag)))
        }
        state.count("listNotes 200")
        let items = input.query.limit.map { Array(notes.prefix($0)) } ?? notes
        return .ok(.init(headers: .init(eTag: etag, cacheControl: "no-cache"), body: .json(.init(items: items))))
    }

    func createNote(_ input: Operations.CreateNote.Input) async throws -> Operations.CreateNote.Output {
        guard case .json(let new) = input.body, !new.title.isEmpty else {
            return .badRequest(.init(body: .json(.init(message: "A note needs a title."))))
        }
        state.count("createNote 201")
        return .created(.init(body: .json(state.add(new))))
    }

    func getNote(_ input: Operations.GetNote.Input) async throws -> Operations.GetNote.Output {
        if input.path.id == "teapot" { return .undocumented(statusCode: 418, .init()) }
        guard let note = state.note(input.path.id) else {
            return .notFound(.init(body: .json(.init(message: "No note \(input.path.id)."))))
        }
        return .ok(.init(body: .json(note)))
    }

    func uploadAttachment(
        _ input: Operations.UploadAttachment.Input
    ) async throws
        -> Operations.UploadAttachment.Output
    {
        guard case .binary(let body) = input.body else { return .undocumented(statusCode: 415, .init()) }
        var size: Int64 = 0
        var checksum = CRC32()
        for try await chunk in body {
            size += Int64(chunk.count)
            checksum.update(chunk)
        }
        state.count("uploadAttachment \(size)")
        return .ok(.init(body: .json(.init(id: input.path.id, size: size, checksum: checksum.hex))))
    }

    func streamEvents(_ input: Operations.StreamEvents.Input) async throws -> Operations.StreamEvents.Output {
        let events = ChangeEvents(count: input.query.count, dropAfter: input.query.dropAfter, state: state)
        return .ok(.init(body: .textEventStream(HTTPBody(events, length: .unknown, iterationBehavior: .single))))
    }
}

/// An event stream made as the server writes it: the next event only when the last one is
/// written, so a client that stops reading holds the server back, and one that closes the
/// connection ends it (counted as `"streamEvents stopped by the client"`).
struct ChangeEvents: AsyncSequence, Sendable {
    typealias Element = ArraySlice<UInt8>
    let count: Int
    let dropAfter: Int?
    let state: NotesState

    func makeAsyncIterator() -> Iterator { Iterator(events: self) }

    struct Iterator: AsyncIteratorProtocol {
        let events: ChangeEvents
        let progress: Progress

        init(events: ChangeEvents) {
            self.events = events
            self.progress = Progress(state: events.state)
        }

        mutating func next() async throws -> ArraySlice<UInt8>? {
            let sent = progress.sent
            guard sent < events.count else {
                progress.finished = true
                return nil
            }
            if sent == events.dropAfter {
                progress.finished = true
                throw CancellationError()
            }
            await events.state.passGate(sent: sent)
            progress.sent += 1
            let sequence = sent + 1
            let event =
                "id: \(sequence)\nevent: change\ndata: {\"sequence\":\(sequence),\"noteID\":\"n\(sequence)\"}\n\n"
            return ArraySlice(event.utf8)
        }
    }

    /// How far an iteration went; one dropped before the end counts as stopped by the client.
    final class Progress {
        let state: NotesState
        var sent = 0
        var finished = false

        init(state: NotesState) { self.state = state }

        deinit {
            if !finished { state.count("streamEvents stopped by the client") }
        }
    }
}

/// CRC-32 (IEEE), to tell an upload's bytes arrived unchanged.
package struct CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        (0..<8).reduce(UInt32(index)) { crc, _ in crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
    }
    private var crc: UInt32 = 0xFFFF_FFFF

    /// A checksum of no bytes yet.
    package init() {}

    /// Adds `bytes` to the checksum.
    package mutating func update(_ bytes: some Sequence<UInt8>) {
        for byte in bytes { crc = Self.table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
    }

    /// The checksum as 8 hexadecimal digits.
    package var hex: String {
        let value = crc ^ 0xFFFF_FFFF
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }
}
