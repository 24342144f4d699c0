import FetchKit
import FetchKitTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// FetchKit's default transport against the transport conformance suite it ships.
@Suite struct TransportConformanceTests {
    @Test(arguments: TransportConformance.Check.allCases)
    func urlSessionTransportConforms(_ check: TransportConformance.Check) async throws {
        let conformance = TransportConformance { URLSessionTransport(maximumConnectionsPerHost: $0) }
        #if canImport(FoundationNetworking)
            if check == .deliversUnknownCodings {
                // FoundationNetworking has libcurl decode every content coding, and libcurl fails
                // one it does not know (CURLE_BAD_CONTENT_ENCODING); nothing in URLSession's API
                // turns that off. Recorded as a known issue, so a fixed FoundationNetworking shows.
                await withKnownIssue("libcurl fails unknown content codings in FoundationNetworking") {
                    try await conformance.run(check)
                }
                return
            }
        #endif
        if check == .holdsBackSlowReaders {
            // URLSession cannot pause a running task on Linux (a suspended task stops its
            // callbacks while libcurl reads on), and on Apple platforms a data task's delegate
            // has no demand to give either: a reader that falls behind holds the difference.
            // Recorded as a known issue; the AsyncHTTPClient companion passes it.
            await withKnownIssue("URLSession reads a stream on whether or not its reader keeps up") {
                try await conformance.run(check)
            }
            return
        }
        try await conformance.run(check)
    }

    /// A transport that loses every body fails the suite, naming what it did: the checks can fail.
    @Test func aBrokenTransportFailsTheChecksThatCoverWhatItBreaks() async throws {
        let failures = await TransportConformance { _ in BodyLosingTransport() }.runAll()
        let failed = Set(failures.map(\.check))
        #expect(failed.contains(.deliversResponses))
        #expect(failed.contains(.downloadsFiles))
        #expect(failed.contains(.streamsBodies))
        #expect(failures.first { $0.check == .deliversResponses }?.description.contains("the body was") == true)
    }
}

/// Sends through URLSession but hands FetchKit an empty body.
final class BodyLosingTransport: HTTPTransport {
    private let inner = URLSessionTransport()

    func send(
        _ request: URLRequest, completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> any TransportTask {
        inner.send(request) { result in
            completion(result.map { TransportResponse(response: $0.response, data: Data()) })
        }
    }
}
