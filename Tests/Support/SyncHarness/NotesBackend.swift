public import FetchKitTesting
public import Foundation
import Locking

/// A notes backend on the loopback stub server, for the sync fault harness: a REST collection
/// with client-chosen ids, a keyset change feed with tombstones, idempotency keys, and faults.
///
/// It counts every write it applies, per idempotency key and per write's content, so that a
/// test can check each write was applied exactly once.
public final class NotesBackend: Sendable {
    /// A fault injected into the next write (or list) request.
    public enum Fault: Sendable {
        /// Applies the write, then closes the connection without answering (after calling
        /// `then`, which may kill the client).
        case dropAfterApply(then: (@Sendable () -> Void)?)
        /// Calls `then` (which may kill the client) as the request arrives, and closes the
        /// connection without applying or answering it: a write, or a page of a list.
        case dropBeforeApply(then: (@Sendable () -> Void)?)
        /// Calls `hold` as the request arrives (it may block until the test lets the request go
        /// on), then handles it: a page read when the test chooses.
        case hold(@Sendable () -> Void)
        /// Handles the request, then calls `hold` (it may block until the test lets the answer
        /// go) before answering: a page read now and received when the test chooses.
        case holdAnswer(@Sendable () -> Void)
        /// Answers with this status, without applying (`Retry-After` when given).
        case status(Int, retryAfter: String?)
        /// Applies the write and answers after this delay (reorders concurrent answers).
        case delay(Duration)
        /// Processes the request twice, as a duplicating proxy would (the second answer wins).
        case duplicate
        /// Applies the write, then answers with this response instead of its own (a server, or
        /// a proxy, that lies: `200` with a page of HTML, another record).
        case answerAfterApply(StubResponse)
    }

    /// A stored note or tombstone.
    public struct Record: Sendable, Hashable, Codable {
        /// The identity.
        public var id: String
        /// The title.
        public var title: String
        /// The text.
        public var body: String
        /// The server's stamp.
        public var updated: String
        /// Whether it is a tombstone.
        public var deleted: Bool
    }

    struct State {
        var records: [String: Record] = [:]
        var clock: Int64 = 1_795_000_000_000
        var replays: [String: StubResponse] = [:]
        var applications: [String: Int] = [:]
        var keyUses: [String: Int] = [:]
        var writeFaults: [Fault] = []
        var listFaults: [Fault] = []
        var oldestCursor: String?
        var hardDeletes = false
        var honoursKeys = true
        var writes = 0
        var lists = 0
        var slowTitles: [String: Duration] = [:]
        var batchesEnabled = true
        var batches = 0
        /// The users by token, once sign-in is required (``requireSignIn(tokens:)``).
        var tokens: [String: String]?
        /// Who created each record, while sign-in is required.
        var owners: [String: String] = [:]
        /// The requests that came while sign-in was required.
        var calls: [Call] = []
    }

    /// The server.
    public let server = StubServer()
    let state = Locked(State())

    /// A backend; call ``start()``.
    ///
    /// - Parameter hardDeletes: whether deletes leave no tombstone (then only a reconciliation
    ///   finds them).
    public init(hardDeletes: Bool = false) {
        state.withLock { $0.hardDeletes = hardDeletes }
    }

    /// Starts serving on a free loopback port.
    public func start() throws {
        server.route("GET", "/notes") { [self] request in signedIn(request) { list(request, as: $0) } }
        server.route("GET", "/ids") { [self] request in signedIn(request) { identities(request, as: $0) } }
        server.route("GET", "/notes/*") { [self] request in signedIn(request) { read(request, as: $0) } }
        server.route("POST", "/notes") { [self] request in signedIn(request) { write(request, as: $0) } }
        server.route("PATCH", "/notes/*") { [self] request in signedIn(request) { write(request, as: $0) } }
        server.route("DELETE", "/notes/*") { [self] request in signedIn(request) { write(request, as: $0) } }
        server.route("POST", "/batch") { [self] request in signedIn(request) { batch(request, as: $0) } }
        try server.start()
    }

    /// The server's URL.
    public var baseURL: URL { server.baseURL }

    // MARK: Control

    /// Queues faults for the next write requests, in order.
    public func failWrites(_ faults: Fault...) { state.withLock { $0.writeFaults += faults } }
    /// Queues faults for the next list requests, in order.
    public func failLists(_ faults: Fault...) { state.withLock { $0.listFaults += faults } }
    /// Rejects (`410`) every cursor older than the server's clock now, as an expired token.
    public func expireCursors() { state.withLock { $0.oldestCursor = Self.stamp($0.clock) } }
    /// Moves the server's clock (backwards with a negative value).
    public func jumpClock(by milliseconds: Int64) { state.withLock { $0.clock += milliseconds } }
    /// Answers every write of this title after a delay (reorders concurrent answers).
    public func delayWrites(titled title: String, by delay: Duration) {
        state.withLock { $0.slowTitles[title] = delay }
    }
    /// Whether the server deduplicates writes by idempotency key (on by default).
    public func honourKeys(_ on: Bool) { state.withLock { $0.honoursKeys = on } }

    /// Writes a note on the server, as another client would.
    public func put(_ id: String, title: String, body: String = "") {
        state.withLock { state in
            state.clock += 1
            state.records[id] = Record(
                id: id, title: title, body: body, updated: Self.stamp(state.clock), deleted: false)
            state.applications["remote:" + title, default: 0] += 1
        }
    }

    /// Deletes a note on the server, as another client would.
    public func remove(_ id: String) {
        state.withLock { state in
            guard let record = state.records[id], !record.deleted else { return }
            Self.delete(record, in: &state)
        }
    }

    /// The notes the server has (no tombstones), by id.
    public var notes: [String: Record] {
        state.withLock { $0.records.filter { !$0.value.deleted } }
    }

    /// How many times each write's content was applied (`create:<title>`, `update:<title>`, `delete:<id>`).
    public var applications: [String: Int] { state.withLock { $0.applications } }
    /// How many write requests arrived.
    public var writeRequests: Int { state.withLock { $0.writes } }
    /// Turns the batch API (`POST /batch`) on or off (on by default; off, it answers `403`).
    public func enableBatches(_ on: Bool) { state.withLock { $0.batchesEnabled = on } }
    /// How many batch requests arrived.
    public var batchRequests: Int { state.withLock { $0.batches } }
    /// How many list requests arrived.
    public var listRequests: Int { state.withLock { $0.lists } }

    // MARK: Requests

    private func list(_ request: RecordedRequest, as user: String?) -> StubResponse {
        let fault: Fault? = state.withLock { state in
            state.lists += 1
            return state.listFaults.isEmpty ? nil : state.listFaults.removeFirst()
        }
        if case .status(let status, let retryAfter) = fault {
            return Self.status(status, retryAfter: retryAfter)
        }
        if case .dropBeforeApply(let then) = fault {
            then?()
            return .closeWithoutAnswer
        }
        if case .hold(let hold) = fault { hold() }
        let query = Dictionary(request.queryItems.map { ($0.name, $0.value ?? "") }) { first, _ in first }
        let limit = Int(query["limit"] ?? "") ?? 50
        let after = query["after"]
        let afterID = query["afterID"] ?? ""
        let page = state.withLock { state in
            if let after, let oldest = state.oldestCursor, after < oldest {
                return StubResponse.json(#"{"message":"The sync cursor expired; list from the start."}"#, status: 410)
            }
            if after == nil { state.oldestCursor = nil }
            let sorted = state.records.values.filter { record in
                guard user == nil || state.owners[record.id] == user else { return false }
                guard let after else { return true }
                return record.updated > after || (record.updated == after && record.id > afterID)
            }.sorted { ($0.updated, $0.id) < ($1.updated, $1.id) }
            let page = Array(sorted.prefix(limit))
            let items = page.map { Self.json($0) }.joined(separator: ",")
            return StubResponse.json(#"{"items":[\#(items)],"hasMore":\#(sorted.count > limit)}"#)
        }
        if case .holdAnswer(let hold) = fault { hold() }
        return page
    }

    private func identities(_ request: RecordedRequest, as user: String?) -> StubResponse {
        let query = Dictionary(request.queryItems.map { ($0.name, $0.value ?? "") }) { first, _ in first }
        let limit = Int(query["limit"] ?? "") ?? 50
        let after = query["after"] ?? ""
        return state.withLock { state in
            let ids = state.records.values.filter {
                !$0.deleted && $0.id > after && (user == nil || state.owners[$0.id] == user)
            }.map(\.id).sorted()
            let page = ids.prefix(limit).map { "\"\($0)\"" }.joined(separator: ",")
            return StubResponse.json(#"{"ids":[\#(page)],"hasMore":\#(ids.count > limit)}"#)
        }
    }

    private func read(_ request: RecordedRequest, as user: String?) -> StubResponse {
        let id = String(request.path.dropFirst("/notes/".count))
        return state.withLock { state in
            guard let record = state.records[id], !record.deleted, user == nil || state.owners[id] == user else {
                return Self.notFound
            }
            return StubResponse.json(Self.json(record))
        }
    }

    private func write(_ request: RecordedRequest, as user: String?) -> StubResponse {
        let key = request.headers["idempotency-key"]
        let fault: Fault? = state.withLock { state in
            state.writes += 1
            if let key, state.honoursKeys, state.replays[key] != nil { return nil }
            return state.writeFaults.isEmpty ? nil : state.writeFaults.removeFirst()
        }
        switch fault {
        case .status(let status, let retryAfter):
            return Self.status(status, retryAfter: retryAfter)
        case .dropAfterApply(let then):
            _ = apply(request, key: key, as: user)
            then?()
            return .closeWithoutAnswer
        case .dropBeforeApply(let then):
            then?()
            return .closeWithoutAnswer
        case .delay(let delay):
            return apply(request, key: key, as: user).delayed(by: delay)
        case .hold(let hold):
            hold()
            return apply(request, key: key, as: user)
        case .holdAnswer(let hold):
            let answer = apply(request, key: key, as: user)
            hold()
            return answer
        case .duplicate:
            _ = apply(request, key: key, as: user)
            return apply(request, key: key, as: user)
        case .answerAfterApply(let response):
            _ = apply(request, key: key, as: user)
            return response
        case nil:
            let fields = (try? JSONSerialization.jsonObject(with: request.body)) as? [String: String]
            if let title = fields?["title"], let delay = state.withLock({ $0.slowTitles[title] }) {
                Thread.sleep(forTimeInterval: delay.timeInterval)
            }
            return apply(request, key: key, as: user)
        }
    }

    /// `POST /batch` with `{"requests":[{"method","url","headers","body"}]}`: every write applied
    /// in one transaction (each once per idempotency key), answered with `[{"status","body"}]`
    /// in order; a write that fails rolls the whole batch back with `400`, naming it. The write
    /// faults apply to the batch as one request.
    private func batch(_ request: RecordedRequest, as user: String?) -> StubResponse {
        let fault: Fault?? = state.withLock { state in
            state.batches += 1
            guard state.batchesEnabled else { return .none }
            return .some(state.writeFaults.isEmpty ? nil : state.writeFaults.removeFirst())
        }
        guard let fault else { return .json(#"{"message":"Batch requests are not allowed."}"#, status: 403) }
        switch fault {
        case .status(let status, let retryAfter): return Self.status(status, retryAfter: retryAfter)
        case .dropAfterApply(let then):
            _ = applyBatch(request, as: user)
            then?()
            return .closeWithoutAnswer
        case .dropBeforeApply(let then):
            then?()
            return .closeWithoutAnswer
        case .answerAfterApply(let response):
            _ = applyBatch(request, as: user)
            return response
        case .delay(let delay): return applyBatch(request, as: user).delayed(by: delay)
        case .hold(let hold):
            hold()
            return applyBatch(request, as: user)
        case .holdAnswer(let hold):
            let answer = applyBatch(request, as: user)
            hold()
            return answer
        case .duplicate:
            _ = applyBatch(request, as: user)
            return applyBatch(request, as: user)
        case nil: return applyBatch(request, as: user)
        }
    }

    private func applyBatch(_ request: RecordedRequest, as user: String?) -> StubResponse {
        let items =
            (try? JSONSerialization.jsonObject(with: request.body) as? [String: Any])?["requests"] as? [[String: Any]]
        guard let items else { return .json(#"{"message":"A batch needs requests."}"#, status: 400) }
        return state.withLock { state in
            var trial = state
            var answers: [String] = []
            for (index, item) in items.enumerated() {
                let headers = (item["headers"] as? [String: String] ?? [:]).reduce(into: [String: String]()) {
                    $0[$1.key.lowercased()] = $1.value
                }
                let body = item["body"].flatMap { try? JSONSerialization.data(withJSONObject: $0) } ?? Data()
                let key = headers["idempotency-key"]
                let response: StubResponse
                if let key, trial.honoursKeys, let replay = trial.replays[key] {
                    response = replay
                } else {
                    if let key { trial.keyUses[key, default: 0] += 1 }
                    response = Self.perform(
                        method: item["method"] as? String ?? "", path: item["url"] as? String ?? "", body: body,
                        user: user, in: &trial)
                    if let key, response.status < 500 { trial.replays[key] = response }
                }
                guard response.status < 400 else {
                    return .json(
                        #"{"message":"Batch transaction failed.","failed":\#(index),"status":\#(response.status)}"#,
                        status: 400)
                }
                var answer = "null"
                if case .data(let data) = response.body, !data.isEmpty {
                    answer = String(decoding: data, as: UTF8.self)
                }
                answers.append(#"{"status":\#(response.status),"body":\#(answer)}"#)
            }
            let writes = state.writes
            state = trial
            state.writes = writes + items.count
            return .json("[" + answers.joined(separator: ",") + "]")
        }
    }

    /// Applies a write once per idempotency key: a key seen before replays its first answer.
    private func apply(_ request: RecordedRequest, key: String?, as user: String?) -> StubResponse {
        state.withLock { state in
            if let key, state.honoursKeys, let replay = state.replays[key] { return replay }
            if let key { state.keyUses[key, default: 0] += 1 }
            let response = Self.perform(request, user: user, in: &state)
            if let key, response.status < 500 { state.replays[key] = response }
            return response
        }
    }

    private static func perform(_ request: RecordedRequest, user: String?, in state: inout State) -> StubResponse {
        perform(
            method: request.method, path: request.path, body: request.body, ifMatch: request.header("If-Match"),
            user: user, in: &state)
    }

    /// Applies one write. An `If-Match` that is not the record's `updated` (its entity tag) is
    /// answered `412 Precondition Failed`, as a server with conditional writes does.
    private static func perform(
        method: String, path: String, body: Data, ifMatch: String? = nil, user: String?, in state: inout State
    ) -> StubResponse {
        let fields = (try? JSONSerialization.jsonObject(with: body)) as? [String: String] ?? [:]
        // Another user's record is not there for this one (as PocketBase's rules answer).
        if method != "POST", let user, let owner = state.owners[String(path.dropFirst("/notes/".count))], owner != user
        {
            return notFound
        }
        if let ifMatch, method != "POST", let record = state.records[String(path.dropFirst("/notes/".count))],
            !record.deleted, record.updated != ifMatch
        {
            return .json(#"{"message":"The note changed since the tag given."}"#, status: 412)
        }
        switch method {
        case "POST":
            guard let id = fields["id"], !id.isEmpty else {
                return .json(#"{"message":"A note needs an id."}"#, status: 400)
            }
            if let existing = state.records[id], !existing.deleted {
                return .json(#"{"message":"The note \#(id) already exists."}"#, status: 409)
            }
            state.clock += 1
            let record = Record(
                id: id, title: fields["title"] ?? "", body: fields["body"] ?? "", updated: stamp(state.clock),
                deleted: false)
            state.records[id] = record
            if let user { state.owners[id] = user }
            state.applications["create:" + record.title, default: 0] += 1
            return .json(json(record))
        case "PATCH":
            let id = String(path.dropFirst("/notes/".count))
            guard var record = state.records[id], !record.deleted else { return notFound }
            if let title = fields["title"], title.hasPrefix("refuse") {
                return .json(#"{"message":"The title may not start with refuse."}"#, status: 422)
            }
            state.clock += 1
            record.title = fields["title"] ?? record.title
            record.body = fields["body"] ?? record.body
            record.updated = stamp(state.clock)
            state.records[id] = record
            state.applications["update:" + record.title, default: 0] += 1
            return .json(json(record))
        case "DELETE":
            let id = String(path.dropFirst("/notes/".count))
            guard let record = state.records[id], !record.deleted else { return notFound }
            delete(record, in: &state)
            state.applications["delete:" + id, default: 0] += 1
            return .status(204)
        default:
            return .status(405)
        }
    }

    private static func delete(_ record: Record, in state: inout State) {
        state.clock += 1
        if state.hardDeletes {
            state.records[record.id] = nil
        } else {
            var tombstone = record
            tombstone.deleted = true
            tombstone.updated = stamp(state.clock)
            state.records[record.id] = tombstone
        }
    }

    private static let notFound = StubResponse.json(#"{"message":"No such note."}"#, status: 404)

    private static func status(_ status: Int, retryAfter: String?) -> StubResponse {
        var response = StubResponse.json(#"{"message":"Injected failure \#(status)."}"#, status: status)
        if let retryAfter { response = response.header("Retry-After", retryAfter) }
        return response
    }

    private static func json(_ record: Record) -> String {
        let data = (try? JSONEncoder().encode(record)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// `2026-11-24 09:59:14.909Z` for a millisecond clock.
    static func stamp(_ milliseconds: Int64) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let date = Date(timeIntervalSince1970: Double(milliseconds / 1000))
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(
            format: "%04d-%02d-%02d %02d:%02d:%02d.%03dZ", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0,
            parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0, Int(milliseconds % 1000))
    }
}
