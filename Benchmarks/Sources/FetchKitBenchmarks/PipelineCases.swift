import FetchKit
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A transport that answers every request at once, on the calling thread, with the small
/// movie: what is left of a fetch is FetchKit's own pipeline.
struct InstantTransport: HTTPTransport {
    private final class Task: TransportTask {
        func cancel() {}
    }

    let body = Data(smallMovieJSON.utf8)

    func send(
        _ request: URLRequest, completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> any TransportTask {
        let url = request.url ?? URL(fileURLWithPath: "/")
        completion(
            .success(
                TransportResponse(
                    url: url, statusCode: 200, httpVersion: "HTTP/1.1",
                    headerFields: ["Content-Type": "application/json"], data: body)))
        return Task()
    }
}

/// The time FetchKit's pipeline adds to a request, without a network: `count` async fetches
/// over ``InstantTransport`` against the same number of `JSONDecoder` decodes of the body.
func pipelineAloneCase(count: Int) throws -> BenchmarkCase {
    let client = FetchClient { $0.transport = InstantTransport() }
    guard let base = URL(string: "http://127.0.0.1:8080") else {
        throw RawSQLite.Failure(description: "the pipeline case's base URL does not parse")
    }
    let endpoint = BenchEndpoint(baseURL: base, path: "/movie")
    let body = Data(smallMovieJSON.utf8)
    let ours = Side(name: "FetchKit async fetch over an instant transport") {
        try time {
            try blocking {
                for _ in 0..<count { _ = try await client.fetch(endpoint, extracting: .decode(SmallMovie.self)) }
            }
        }
    }
    let failures = RawFailures()
    let callback = Side(name: "FetchKit callback fetch over an instant transport, waited for") {
        let duration = time {
            for _ in 0..<count {
                let done = DispatchSemaphore(value: 0)
                client.fetch(endpoint, extracting: .decode(SmallMovie.self)) { result in
                    if case .failure(let error) = result { failures.record("\(error)") }
                    done.signal()
                }
                done.wait()
            }
        }
        try failures.throwIfAny(side: "FetchKit callback fetch over an instant transport")
        return duration
    }
    let probe = DeliveryProbe()
    let fromActor = Side(name: "FetchKit callback fetch from an actor (delivered on the actor), waited for") {
        try time {
            try blocking {
                for _ in 0..<count { try await probe.fetch(client, endpoint) }
            }
        }
    }
    let reference = Side(name: "JSONDecoder alone") {
        try time {
            try blocking {
                for _ in 0..<count { _ = try JSONDecoder().decode(SmallMovie.self, from: body) }
            }
        }
    }
    return BenchmarkCase(
        name: "FetchKit: the pipeline alone, over a transport that answers at once (x\(count))",
        ours: ours, reference: reference, others: [callback, fromActor], target: nil, iterations: 9)
}

/// An actor that fetches with a completion: the completion runs on the actor (the caller's
/// isolation), so this measures that delivery against the callback queue's hop.
actor DeliveryProbe {
    func fetch(_ client: FetchClient, _ endpoint: BenchEndpoint) async throws {
        let result: Result<SmallMovie, FetchError> = await withCheckedContinuation { continuation in
            client.fetch(endpoint, extracting: .decode(SmallMovie.self)) { result in continuation.resume(returning: result) }
        }
        _ = try result.get()
    }
}
