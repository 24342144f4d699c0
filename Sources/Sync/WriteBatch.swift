public import FetchKit
public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// A backend's batch API: the writes of a round sent in one request, each with its own answer
/// (PocketBase's `POST /api/batch`, a JSON:API atomic operation, an OData `$batch`).
///
/// The mirror prepares each write as it would send it alone (its request, the idempotency key
/// and `If-Match` headers, a read before an update), then sends up to ``maximumCount`` of them
/// in one request built by ``request`` and reads one answer per write with ``answers``. Each
/// answer is judged as the write's own response would be: `2xx` acknowledges it (its body read
/// by ``RemoteCollection/written``), an error status is handled as the same status alone (a
/// create that already exists confirmed by a read, a delete that meets `404` done, a refusal
/// parked as rejected).
///
/// When the batch request itself fails with a client error (the backend has batches turned off,
/// or refused the whole batch as one transaction because one write failed), nothing of it was
/// applied: its writes are sent one by one instead, which finds the write at fault, and the rest
/// of the run sends one by one after a refusal of batches (`403`, `404`, `405`, `501`). A batch
/// that fails on the way (a dropped connection, a `5xx`) has an unknown outcome: its writes stay
/// queued with their keys and are sent again, as a single write would.
public struct WriteBatch: Sendable {
    /// One write's answer inside the batch's response.
    public struct Answer: Sendable, Hashable {
        /// The write's own status.
        public var status: Int
        /// The write's own body (empty when it has none).
        public var body: Data

        /// An answer.
        ///
        /// - Parameters:
        ///   - status: the write's status.
        ///   - body: the write's body.
        public init(status: Int, body: Data) {
            self.status = status
            self.body = body
        }
    }

    /// The most writes one batch request carries (PocketBase's `batch.maxRequests`, 50 by default).
    public var maximumCount: Int
    /// The batch request carrying these writes, in order: each as the `URLRequest` it would be
    /// sent as alone (its URL, method, headers and body).
    public var request: @Sendable (_ writes: [URLRequest]) throws -> any Endpoint
    /// Reads the batch's response: one answer per write, in the order they were given. Throw
    /// when the body is not such a list; a list of another length is refused the same way.
    public var answers: @Sendable (Data, HTTPURLResponse) throws -> [Answer]

    /// Describes a batch API.
    ///
    /// - Parameters:
    ///   - maximumCount: the most writes in one request (at least 2).
    ///   - request: builds the batch request from the writes' requests.
    ///   - answers: reads one answer per write from the batch's response.
    public init(
        maximumCount: Int, request: @escaping @Sendable (_ writes: [URLRequest]) throws -> any Endpoint,
        answers: @escaping @Sendable (Data, HTTPURLResponse) throws -> [Answer]
    ) {
        self.maximumCount = max(2, maximumCount)
        self.request = request
        self.answers = answers
    }
}
