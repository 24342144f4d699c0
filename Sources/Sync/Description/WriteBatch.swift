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
/// by ``RecordWrites/written``), an error status is handled as the same status alone (a
/// create that already exists confirmed by a read, a delete that meets `404` done once a read finds the record gone, a refusal
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
    /// Reads the batch's response, as FetchKit's extractions read any response: one answer per
    /// write, in the order they were given. Throw when the body is not such a list; a list of
    /// another length is refused the same way.
    public var answers: Extraction<[Answer]>

    /// Describes a batch API.
    ///
    /// - Parameters:
    ///   - maximumCount: the most writes in one request (at least 2).
    ///   - request: builds the batch request from the writes' requests.
    ///   - answers: reads one answer per write from the batch's response.
    public init(
        maximumCount: Int, request: @escaping @Sendable (_ writes: [URLRequest]) throws -> any Endpoint,
        answers: Extraction<[Answer]>
    ) {
        self.maximumCount = max(2, maximumCount)
        self.request = request
        self.answers = answers
    }

    /// The JSON batch format of PocketBase's `POST /api/batch`: a body of
    /// `{"requests": [{"method", "url", "headers", "body"}]}`, each write's URL its path and query
    /// and its body a JSON value, answered with `[{"status", "body"}]` in the same order.
    ///
    /// Each write runs as the caller of the batch: its own `Authorization` header is left out
    /// (the batch request carries the client's).
    ///
    /// ```swift
    /// notes.batch = .jsonRequests(maximumCount: 50) { body in
    ///     PocketBaseRequest(path: "/api/batch", method: .post, body: body)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - maximumCount: the most writes in one request (PocketBase's `batch.maxRequests`, 50 by
    ///     default).
    ///   - endpoint: the batch request, with the body given.
    /// - Returns: the batch API.
    public static func jsonRequests(
        maximumCount: Int, endpoint: @escaping @Sendable (RequestBody) -> any Endpoint
    ) -> WriteBatch {
        WriteBatch(
            maximumCount: maximumCount,
            request: { writes in
                let items: [[String: Any]] = try writes.map { request in
                    var url = request.url?.path ?? ""
                    if let query = request.url?.query { url += "?" + query }
                    let headers = (request.allHTTPHeaderFields ?? [:]).filter { $0.key.lowercased() != "authorization" }
                    var item: [String: Any] = ["method": request.httpMethod ?? "GET", "url": url, "headers": headers]
                    if let body = request.httpBody, !body.isEmpty {
                        item["body"] = try JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])
                    }
                    return item
                }
                let body = try JSONSerialization.data(withJSONObject: ["requests": items])
                return endpoint(RequestBody(data: body, contentType: "application/json"))
            },
            answers: .custom { data, _ in
                guard let list = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] else {
                    throw DecodingError.dataCorrupted(
                        .init(codingPath: [], debugDescription: "A batch's answer is not a list of answers."))
                }
                return try list.map { answer in
                    var body = Data()
                    if let value = answer["body"], !(value is NSNull) {
                        body = try JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed])
                    }
                    return Answer(status: answer["status"] as? Int ?? 0, body: body)
                }
            })
    }
}
