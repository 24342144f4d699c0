import FetchKit
import Foundation
import Locking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// The checks of streamed responses.
extension Context {
    func streamsBodies() async {
        // The server writes the second chunk only once the client has the first (or, so that a
        // transport that hands over the body only at its end fails in bounded time, after 20 s:
        // the first chunk it hands over then holds both).
        let firstArrived = Locked(false)
        server.route(
            "GET", "/stream",
            respond: .stream(headers: ["Content-Type": "text/plain"]) { writer in
                guard writer.write("first\n") else { return }
                let clock = ContinuousClock()
                let deadline = clock.now + .seconds(20)
                while !firstArrived.withLock({ $0 }), clock.now < deadline {
                    guard writer.pause(.milliseconds(5)) else { return }
                }
                writer.write("second\n")
            })
        server.route("GET", "/refused", respond: .text("maintenance until noon", status: 503))
        let client = client()
        let result = await outcome { () async throws -> [String] in
            let stream = try await client.fetch(endpoint("/stream"), extracting: .stream)
            var chunks: [String] = []
            for try await chunk in stream {
                chunks.append(String(decoding: chunk, as: UTF8.self))
                firstArrived.withLock { $0 = true }
            }
            return chunks
        }
        switch result {
        case .success(let chunks):
            expect(chunks.joined() == "first\nsecond\n", "the streamed body was \(chunks)")
            expect(chunks.first == "first\n", "the first chunk handed over was \(chunks.first ?? "none")")
        case .failure(let error):
            problems.append("the stream failed: \(error)")
        }
        let refused = await outcome { try await client.fetch(endpoint("/refused"), extracting: .stream) }
        expect(refused, fails: .unacceptableStatus, "a stream answered 503")
        if case .failure(let error as FetchError) = refused {
            expect(error.statusCode == 503, "the refused stream's status was \(error.statusCode.map(String.init) ?? "none")")
            expect(
                error.bodyExcerpt?.contains("maintenance") == true,
                "the refused stream's excerpt was \(error.bodyExcerpt ?? "none")")
        }
    }

    /// The most an endless body of the cancellation check writes (about a minute of it): a
    /// transport that does not stream gets a finite body, and the check ends.
    static let endlessBound = 64_000_000

    func cancelsStreams() async {
        // Producers that saw their client leave, and producers that ended (for that reason, or
        // because they wrote a bound: a transport that buffers a whole body instead of streaming
        // it never leaves, and its idle timeout never fires while bytes keep coming).
        let finished = Locked(0)
        let ended = Locked(0)
        server.route(
            "GET", "/endless/*",
            respond: .stream(headers: ["Content-Type": "text/plain"]) { writer in
                var written = 0
                var left = false
                while written < Self.endlessBound {
                    guard writer.write(String(repeating: "x", count: 1000) + "\n") else {
                        left = true
                        break
                    }
                    written += 1001
                    _ = writer.pause(.milliseconds(1))
                }
                if left { finished.withLock { $0 += 1 } }
                ended.withLock { $0 += 1 }
            })
        let client = client()
        let cancelled = paths("/endless/cancelled")
        // Cancelling the reading task.
        let reader = Task { () -> FetchError? in
            do throws(FetchError) {
                let stream = try await client.fetch(cancelled, extracting: .stream)
                for try await _ in stream {}
                return nil
            } catch {
                return error
            }
        }
        _ = await server.waitForRequests(count: 1, timeout: HangBound.duration)
        try? await Task.sleep(for: .milliseconds(50))
        reader.cancel()
        let error = await Self.value(of: reader, within: HangBound.duration) ?? nil
        expect(error?.code == .cancelled, "a cancelled stream ended with \(error.map { "\($0)" } ?? "no error")")
        // Leaving the loop early drops the stream. (A transport that does not stream never
        // hands over the head of an endless body: its fetch times out, in bounded time.)
        let bounded = self.client { $0.timeout = .seconds(60) }
        let early = await outcome { () async throws -> Int in
            let stream = try await bounded.fetch(endpoint("/endless/dropped"), extracting: .stream)
            var count = 0
            for try await _ in stream.lines {
                count += 1
                if count == 3 { break }
            }
            return count
        }
        expect((try? early.get()) == 3, "reading three lines of an endless stream ended with \(early)")
        // Both producers see their client leave.
        let clock = ContinuousClock()
        let deadline = clock.now + HangBound.duration
        while ended.withLock({ $0 }) < 2, clock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
        expect(
            finished.withLock { $0 } == 2,
            "\(2 - finished.withLock { $0 }) of 2 stopped streams still had their connection open")
    }

    func holdsBackSlowReaders() async {
        let written = Locked(0)
        server.route(
            "GET", "/flood",
            respond: .stream(headers: ["Content-Type": "application/octet-stream"]) { writer in
                let chunk = Data(count: 64 * 1024)
                while writer.write(chunk) {
                    written.withLock { $0 = writer.bytesWritten }
                    if writer.bytesWritten > 512 * 1024 * 1024 { return }
                }
            })
        let client = client()
        let limit = 64 * 1024 * 1024
        let result = await outcome { () async throws -> Int in
            let stream = try await client.fetch(endpoint("/flood"), extracting: .stream)
            var iterator = stream.makeAsyncIterator()
            _ = try await iterator.next()
            // The reader stops; the server writes until the transport stops reading. Wait
            // until its count stands still, or passes the limit.
            var last = -1
            let clock = ContinuousClock()
            let deadline = clock.now + HangBound.duration
            while clock.now < deadline {
                try await Task.sleep(for: .milliseconds(300))
                let now = written.withLock { $0 }
                if now > limit || now == last { break }
                last = now
            }
            stream.cancel()
            return written.withLock { $0 }
        }
        switch result {
        case .success(let bytes):
            expect(
                bytes <= limit,
                "the server wrote \(bytes / 1024 / 1024) MiB to a reader that took one chunk: the transport read on")
        case .failure(let error):
            problems.append("the stream failed: \(error)")
        }
    }
}
