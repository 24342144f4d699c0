public import FetchKit
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The behaviour FetchKit promises over any `HTTPTransport`, written once as checks
/// a transport can run: exactly-once completion, retries and `Retry-After`, cancellation,
/// timeouts, fault kinds, redaction, metrics, uploads, downloads, progress, redirects and
/// decompression, each against a ``StubServer``.
///
/// Run every check from a test of your transport, one test case each:
///
/// ```swift
/// import FetchKitTesting
/// import Testing
///
/// @Test(arguments: TransportConformance.Check.allCases)
/// func myTransportConforms(_ check: TransportConformance.Check) async throws {
///     try await TransportConformance { connections in MyTransport(maximumConnectionsPerHost: connections) }
///         .run(check)
/// }
/// ```
///
/// A check throws ``TransportConformance/Failure`` listing every expectation it found
/// broken, in words that name what the transport did. FetchKit's own `URLSessionTransport`
/// and the `FetchKitAsyncHTTPClient` companion's transport pass every check in CI.
public struct TransportConformance: Sendable {
    /// One promised behaviour.
    public enum Check: String, CaseIterable, Sendable, CustomStringConvertible {
        /// A `GET` returns the status, headers and body the server sent.
        case deliversResponses
        /// Method, headers and body reach the server as sent.
        case sendsRequests
        /// A file body is streamed whole, with its `Content-Length`.
        case uploadsFiles
        /// A download writes the whole body to its file.
        case downloadsFiles
        /// A `503` with `Retry-After` is retried after the server's delay, on the client's clock.
        case retriesWithRetryAfter
        /// Cancelling one request, a group, or every request completes each once with `cancelled`.
        case cancels
        /// A server that never answers ends in `timedOut`, at the client's timeout.
        case timesOut
        /// A connection dropped mid-body, or closed without an answer, is `connectionLost`.
        case reportsLostConnections
        /// An answer that is not HTTP is `badResponse`; a refused connection is `transportFailed`.
        case reportsBadResponsesAndRefusals
        /// Many requests under mixed faults each complete exactly once.
        case completesExactlyOnce
        /// No secret from the URL or headers appears in an error, even when the server echoes it.
        case redactsSecrets
        /// Observers get the status, the body size and the attempts of each request.
        case reportsMetrics
        /// The server never sees more requests in flight than the client's per-host limit.
        case respectsTheHostLimit
        /// A followed request's progress ends with one finished report holding the whole body.
        case reportsProgress
        /// Redirects (`302`) are followed to the final answer.
        case followsRedirects
        /// A `gzip` body is decompressed.
        case decompresses
        /// A body in a content coding the transport does not know is delivered as received, with
        /// its `Content-Encoding` header, not as a failure (RFC 9110 §8.4: a recipient that does
        /// not know the coding leaves it to the application).
        case deliversUnknownCodings
        /// A streamed response (`Extraction.stream`) hands over each chunk as it arrives,
        /// before the server has written the next, and ends when the body ends; a refused one
        /// fails with its status and body.
        case streamsBodies
        /// Cancelling the task that reads a stream, or dropping the stream, closes its connection.
        case cancelsStreams
        /// A reader that stops reading holds the server back: the transport reads no more than
        /// a bounded amount ahead of the reader (`StreamedBody.write(_:)`), so an endless
        /// stream takes flat memory.
        case holdsBackSlowReaders

        /// The check's name.
        public var description: String { rawValue }
    }

    /// What a check found broken.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// The check.
        public let check: Check
        /// Each broken expectation, in words.
        public let problems: [String]

        /// `uploadsFiles: the server received 0 of 3145728 bytes; …`.
        public var description: String { "\(check): " + problems.joined(separator: "; ") }
    }

    private let makeTransport: @Sendable (_ connectionsPerHost: Int) -> any HTTPTransport

    /// Creates the suite for a transport.
    ///
    /// - Parameter makeTransport: makes a new transport that opens at most
    ///   `connectionsPerHost` connections per host (each check makes its own).
    public init(_ makeTransport: @escaping @Sendable (_ connectionsPerHost: Int) -> any HTTPTransport) {
        self.makeTransport = makeTransport
    }

    /// Runs one check.
    ///
    /// - Parameter check: the behaviour to check.
    /// - Throws: ``Failure`` naming every broken expectation, or the error that stopped the
    ///   check from running (the stub server could not start).
    public func run(_ check: Check) async throws {
        let server = StubServer()
        try server.start()
        defer { server.stop() }
        let context = Context(server: server, makeTransport: makeTransport)
        await context.run(check)
        if !context.problems.isEmpty { throw Failure(check: check, problems: context.problems) }
    }

    /// Runs every check and returns what failed (empty when the transport conforms).
    ///
    /// - Returns: the failures, in the order of `Check.allCases`.
    public func runAll() async -> [Failure] {
        var failures: [Failure] = []
        for check in Check.allCases {
            do {
                try await run(check)
            } catch let failure as Failure {
                failures.append(failure)
            } catch {
                failures.append(Failure(check: check, problems: ["could not run: \(error)"]))
            }
        }
        return failures
    }
}
