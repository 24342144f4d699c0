import Foundation
import Locking
import TestSupport
import Testing

@testable import FetchKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A transport that answers in process, so these tests exercise the seam itself.
final class InProcessTransport: HTTPTransport {
    struct Task: TransportTask {
        let onCancel: @Sendable () -> Void
        func cancel() { onCancel() }
    }

    let sent = Locked<[URLRequest]>([])
    let cancelled = Locked(0)
    private let answer: @Sendable (URLRequest) -> (status: Int, body: String)?

    /// - Parameter answer: the status and body to answer with, or `nil` to never answer until cancelled.
    init(answer: @escaping @Sendable (URLRequest) -> (status: Int, body: String)?) {
        self.answer = answer
    }

    func send(
        _ request: URLRequest, completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    )
        -> any TransportTask
    {
        sent.withLock { $0.append(request) }
        let once = Locked(false)
        let complete: @Sendable (Result<TransportResponse, any Error>) -> Void = { result in
            let first = once.withLock { done -> Bool in
                defer { done = true }
                return !done
            }
            if first { completion(result) }
        }
        if let reply = answer(request), let url = request.url,
            let response = HTTPURLResponse(
                url: url, statusCode: reply.status, httpVersion: "HTTP/1.1", headerFields: [:])
        {
            DispatchQueue.global().async {
                complete(.success(TransportResponse(response: response, data: Data(reply.body.utf8))))
            }
        }
        return Task { [cancelled] in
            cancelled.withLock { $0 += 1 }
            complete(.failure(URLError(.cancelled)))
        }
    }
}

@Suite("Transport seam")
struct TransportSeamTests {
    @Test func aCustomTransportSendsTheAdaptedRequest() async throws {
        let transport = InProcessTransport { _ in (200, #"{"id":3,"title":"t","popularity":1}"#) }
        let client = FetchClient {
            $0.transport = transport
            $0.adapters = [HeaderAdapter(["X-Test": "1"])]
        }
        let url = try #require(URL(string: "https://api.example.com/movie/3"))
        let movie = try await client.fetch(.url(url), extracting: .decode(Movie.self))
        #expect(movie.id == 3)
        let request = try #require(transport.sent.current.first)
        #expect(request.value(forHTTPHeaderField: "X-Test") == "1")
        #expect(request.url == url)
    }

    @Test func theClientsTimeoutCancelsATransportThatNeverAnswers() async throws {
        let transport = InProcessTransport { _ in nil }
        let client = FetchClient {
            $0.transport = transport
            $0.timeout = .milliseconds(50)
            $0.retryPolicy = .none
        }
        let url = try #require(URL(string: "https://api.example.com/never"))
        let error = await #expect(throws: FetchError.self) { try await client.fetch(.url(url), extracting: .data) }
        #expect(error?.code == .timedOut)
        #expect(transport.cancelled.current == 1)
    }

    @Test func thePerHostLimitHoldsRequestsBeforeTheTransport() async throws {
        let transport = InProcessTransport { _ in nil }
        let client = FetchClient {
            $0.transport = transport
            $0.maximumConnectionsPerHost = 2
            $0.retryPolicy = .none
            $0.timeout = Patience.beyondTheTest  // A timeout would free a slot the test counts.
        }
        let tasks = (0..<5).map { index in
            client.fetch(.url(URL(string: "https://a.example.com/\(index)")), extracting: .data) { _ in }
        }
        let other = client.fetch(.url(URL(string: "https://b.example.com/x")), extracting: .data) { _ in }
        try await waitUntil("transport.sent.current.count == 3") { transport.sent.current.count == 3 }
        // The other three of a.example.com wait in the client, not in the transport.
        try await waitUntil("three requests to wait for a slot") { client.limiter.counts.waiting == 3 }
        #expect(transport.sent.current.count == 3)
        tasks[0].cancel()
        try await waitUntil("transport.sent.current.count == 4") { transport.sent.current.count == 4 }
        tasks[1].cancel()
        try await waitUntil("transport.sent.current.count == 5") { transport.sent.current.count == 5 }
        client.cancelAll()
        try await waitUntil("client.runningCount == 0") { client.runningCount == 0 }
        #expect(other.isFinished)
        #expect(transport.sent.current.count == 5)
    }
}
