import FetchKit
import FetchKitOpenAPI
import Foundation
import HTTPTypes
import NotesAPI
import NotesServer
import OpenAPIRuntime
import Testing

/// The generated notes client over `FetchClientTransport`, against the notes API served by
/// Hummingbird (swift-openapi-hummingbird) on loopback.
@Suite struct FetchClientTransportTests {
    @Test func everyOperationRoundTrips() async throws {
        try await Harness.run(configure: {
            $0.authenticator = TokenAuthenticator(token: "first-token") { "first-token" }
        }) {
            harness in
            let created = try await harness.api.createNote(body: .json(.init(title: "Groceries", body: "eggs"))).created
                .body.json
            #expect(created.title == "Groceries")
            #expect(created.body == "eggs")

            let list = try await harness.api.listNotes(query: .init(limit: 10)).ok.body.json
            #expect(list.items.map(\.id) == [created.id])

            let note = try await harness.api.getNote(path: .init(id: created.id)).ok.body.json
            #expect(note == created)

            let bytes = (0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            var checksum = CRC32()
            checksum.update(bytes)
            let receipt = try await harness.api.uploadAttachment(
                path: .init(id: created.id), body: .binary(HTTPBody(bytes))
            ).ok.body.json
            #expect(receipt.size == 3000)
            #expect(receipt.checksum == checksum.hex)

            let events = try await harness.api.streamEvents(query: .init(count: 3)).ok.body.textEventStream
            var sequences: [Int] = []
            for try await event in events.asDecodedServerSentEventsWithJSONData(of: Components.Schemas.ChangeEvent.self)
            {
                sequences.append(event.data?.sequence ?? -1)
            }
            #expect(sequences == [1, 2, 3])
        }
    }

    @Test func documentedAndUndocumentedStatusesReachTheGeneratedClient() async throws {
        try await Harness.run(configure: {
            $0.authenticator = TokenAuthenticator(token: "first-token") { "first-token" }
        }) {
            harness in
            guard case .notFound(let missing) = try await harness.api.getNote(path: .init(id: "n404")) else {
                Issue.record("a missing note is not the documented 404")
                return
            }
            #expect(try missing.body.json.message == "No note n404.")

            guard case .undocumented(let status, _) = try await harness.api.getNote(path: .init(id: "teapot")) else {
                Issue.record("a 418 is not undocumented")
                return
            }
            #expect(status == 418)

            guard case .badRequest(let refused) = try await harness.api.createNote(body: .json(.init(title: ""))) else {
                Issue.record("an empty title is not the documented 400")
                return
            }
            #expect(try refused.body.json.message == "A note needs a title.")
        }
    }

    @Test func pathSegmentsArriveAsTheGeneratedClientEncodedThem() async throws {
        try await Harness.run { harness in
            let output = try await harness.api.getNote(path: .init(id: "a b/c?d&e=%"))
            #expect(try output.notFound.body.json.message == "No note a b/c?d&e=%.")
        }
    }

    @Test func aRevalidatedListIsServedFromTheCache() async throws {
        try await Harness.run(configure: { $0.cache = HTTPCache() }) { harness in
            let first = try await harness.api.listNotes().ok
            let second = try await harness.api.listNotes().ok
            #expect(second.body == first.body)
            #expect(second.headers.eTag == "\"v0\"")
            #expect(harness.state.count(of: "listNotes 200") == 1)
            #expect(harness.state.count(of: "listNotes 304") == 1)
        }
    }

    @Test func twentyRejectedCallsRenewTheTokenOnce() async throws {
        let authenticator = TokenAuthenticator(token: "first-token") { "second-token" }
        try await Harness.run(configure: { $0.authenticator = authenticator }) { harness in
            harness.state.acceptedToken = "second-token"
            let titles = try await withThrowingTaskGroup(of: String.self) { group in
                for index in 0..<20 {
                    group.addTask {
                        try await harness.api.createNote(body: .json(.init(title: "note \(index)"))).created.body.json
                            .title
                    }
                }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
            #expect(titles.count == 20)
            #expect(authenticator.refreshCount == 1)
            #expect(harness.state.count(of: "createNote 201") == 20)
            #expect((1...20).contains(harness.state.count(of: "createNote 401")))
        }
    }

    @Test func aStatusTheRetryPolicyRetriesIsRetriedThenHandedOver() async throws {
        try await Harness.run { harness in
            let unavailable = NotesState.Fault(status: 503, headers: ["Retry-After": "0"])
            harness.state.script("listNotes", unavailable)
            _ = try await harness.api.listNotes().ok
            #expect(harness.state.count(of: "listNotes 503") == 1)

            // Two retries by default: the third 503 in a row is the answer.
            harness.state.script("listNotes", unavailable, unavailable, unavailable)
            guard case .undocumented(let status, _) = try await harness.api.listNotes() else {
                Issue.record("the last 503 is not handed over")
                return
            }
            #expect(status == 503)
            #expect(harness.state.count(of: "listNotes 503") == 4)
        }
    }

    @Test func aThousandEventsAreReadAsTheyArrive() async throws {
        try await Harness.run { harness in
            // The server stops after 500 events until the client has read them: a transport
            // that waited for the whole body would see nothing until the 30-second release.
            harness.state.pauseEvents(after: 500)
            let events = try await harness.api.streamEvents(query: .init(count: 1000)).ok.body.textEventStream
            var received = 0
            for try await event in events.asDecodedServerSentEventsWithJSONData(of: Components.Schemas.ChangeEvent.self)
            {
                received += 1
                #expect(event.data?.sequence == received)
                #expect(event.id == "\(received)")
                if received == 500 { harness.state.openGate() }
            }
            #expect(received == 1000)
            #expect(harness.state.count(of: "gate timed out") == 0)
        }
    }

    @Test func aLongRequestBodyIsSpooledToAFileAndRemoved() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try await Harness.run(configure: { $0.temporaryDirectory = folder.url }) { harness in
            let chunk = (0..<65_536).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
            var checksum = CRC32()
            for _ in 0..<48 { checksum.update(chunk) }
            let stream = AsyncStream<ArraySlice<UInt8>> { continuation in
                for _ in 0..<48 { continuation.yield(chunk[...]) }
                continuation.finish()
            }
            let receipt = try await harness.api.uploadAttachment(
                path: .init(id: "n1"), body: .binary(HTTPBody(stream, length: .unknown))
            ).ok.body.json
            #expect(receipt.size == 48 * 65_536)
            #expect(receipt.checksum == checksum.hex)
            #expect(folder.contents.isEmpty)
        }
    }

    @Test func aLongBodyThatCannotBeSpooledIsATypedError() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("absent-\(UUID().uuidString)")
        try await Harness.run(configure: { $0.temporaryDirectory = folder }) { harness in
            let bytes = [UInt8](repeating: 7, count: FetchClientTransport.bufferedRequestBodyLimit + 1)
            let stream = AsyncStream<ArraySlice<UInt8>> { continuation in
                continuation.yield(bytes[...])
                continuation.finish()
            }
            let error = await #expect(throws: ClientError.self) {
                try await harness.api.uploadAttachment(
                    path: .init(id: "n1"), body: .binary(HTTPBody(stream, length: .unknown)))
            }
            let spooling = error?.underlyingError as? RequestBodySpoolingError
            #expect(spooling?.folder == folder)
            #expect(spooling?.description.contains("temporaryDirectory") == true)
            #expect(harness.state.count(of: "uploadAttachment \(bytes.count)") == 0)
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path))
    }

    @Test func aCancelledCallEndsWithCancellation() async throws {
        try await Harness.run { harness in
            harness.state.script("getNote", NotesState.Fault(status: nil))
            let call = Task { try await harness.api.getNote(path: .init(id: "n1")) }
            let held = try await harness.waitForCount(of: "getNote held")
            #expect(held)
            call.cancel()
            let result = await call.result
            harness.state.openGate()
            guard case .failure(let error as ClientError) = result else {
                Issue.record("a cancelled call returned \(result)")
                return
            }
            #expect((error.underlyingError as? FetchError)?.code == .cancelled)
        }
    }

    @Test func droppingAStreamedBodyClosesTheConnection() async throws {
        try await Harness.run { harness in
            harness.state.pauseEvents(after: 3)
            // The body goes out of scope when the function returns. The stream is longer (about 70 MB)
            // than loopback's socket buffers hold, so the server cannot write it all before the
            // connection closes: only a client that reads on takes the whole of it.
            func readThree() async throws -> Int {
                let events = try await harness.api.streamEvents(query: .init(count: 1_000_000)).ok.body
                    .textEventStream
                var received = 0
                for try await _ in events.asDecodedServerSentEventsWithJSONData(of: Components.Schemas.ChangeEvent.self)
                {
                    received += 1
                    if received == 3 { break }
                }
                return received
            }
            #expect(try await readThree() == 3)
            // The server goes on once the client has let go; its writes then find the connection closed
            // (a client that kept the connection would stall the server or take all the events).
            harness.state.openGate()
            let stopped = try await harness.waitForCount(of: "streamEvents stopped by the client")
            #expect(stopped)
        }
    }

    @Test func aConnectionLostMidStreamIsAFetchError() async throws {
        try await Harness.run { harness in
            let events = try await harness.api.streamEvents(query: .init(count: 100, dropAfter: 10)).ok.body
                .textEventStream
            var received = 0
            let error = await #expect(throws: FetchError.self) {
                for try await _ in events.asDecodedServerSentEventsWithJSONData(of: Components.Schemas.ChangeEvent.self)
                {
                    received += 1
                }
            }
            #expect(received == 10)
            #expect(error?.code == .connectionLost)
        }
    }

    @Test func theClientsObserversSeeEveryCallRedacted() async throws {
        let observer = FinishedCalls()
        try await Harness.run(configure: {
            $0.adapters = [APIKeyAdapter(.query(name: "api_key"), value: "notes-key-0123456789")]
            $0.observers = [observer]
            $0.cache = HTTPCache()
        }) { harness in
            _ = try await harness.api.listNotes().ok
            _ = try await harness.api.listNotes().ok
            _ = try await harness.api.getNote(path: .init(id: "n9")).notFound
        }
        let finished = observer.finished
        // The second list was revalidated: a 304 on the wire, served from the cache.
        #expect(finished.map(\.status) == [200, 304, 404])
        #expect(finished.map(\.cacheUse) == [.none, .notModified, .none])
        #expect(finished.allSatisfy { $0.url.contains("api_key=") && !$0.url.contains("notes-key-0123456789") })
    }

    @Test func aServerThatIsGoneIsAFetchErrorInAClientError() async throws {
        let server = try await NotesServer.start()
        let url = server.serverURL
        await server.stop()
        let fetch = FetchClient { $0.retryPolicy = RetryPolicy(maximumRetries: 0) }
        let api = Client(serverURL: url, transport: FetchClientTransport(client: fetch))
        let error = await #expect(throws: ClientError.self) { try await api.listNotes() }
        let underlying = error?.underlyingError as? FetchError
        #expect(underlying?.code == .transportFailed || underlying?.code == .connectionLost)
        #expect(error?.operationID == "listNotes")
    }
}

/// Records what the client's observers are told of each finished call.
final class FinishedCalls: FetchObserver, @unchecked Sendable {
    // @unchecked Sendable: `calls` is read and written under `lock` only.
    private let lock = NSLock()
    private var calls: [(url: String, status: Int?, cacheUse: FetchMetrics.CacheUse)] = []

    var finished: [(url: String, status: Int?, cacheUse: FetchMetrics.CacheUse)] {
        lock.lock()
        defer { lock.unlock() }
        return calls
    }

    func requestDidFinish(_ request: RequestSummary, metrics: FetchMetrics) {
        lock.lock()
        defer { lock.unlock() }
        calls.append((request.url, metrics.statusCode, metrics.cacheUse))
    }
}
