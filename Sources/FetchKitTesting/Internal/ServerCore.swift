import Foundation
import Locking

/// A route: what it matches and how it answers.
struct Route: Sendable {
    enum Responder: Sendable {
        case fixed(StubResponse)
        case inTurn([StubResponse])
        case handler(@Sendable (RecordedRequest) -> StubResponse)
    }

    let id: Int
    let method: String?
    let path: String
    let query: [String: String]
    let responder: Responder

    func matches(_ request: RecordedRequest) -> Bool {
        if let method, method.uppercased() != request.method.uppercased() { return false }
        if path.hasSuffix("*") {
            guard request.path.hasPrefix(String(path.dropLast())) else { return false }
        } else if path != request.path {
            return false
        }
        return query.allSatisfy { request.queryValue($0.key) == $0.value }
    }
}

/// One listening period of a server, from `start()` to `stop()`: immutable, but for
/// `connections`, a `Locked`.
final class Run: Sendable {
    let port: UInt16
    let listener: Int32
    let wakeRead: Int32
    let wakeWrite: Int32
    let group = DispatchGroup()
    let connections = Locked<(stopping: Bool, descriptors: Set<Int32>)>((false, []))

    init(port: UInt16, listener: Int32, wakeRead: Int32, wakeWrite: Int32) {
        self.port = port
        self.listener = listener
        self.wakeRead = wakeRead
        self.wakeWrite = wakeWrite
    }

    var isStopping: Bool { connections.withLock { $0.stopping } }

    /// Registers an accepted connection, or returns `false` when the run is stopping.
    func register(_ descriptor: Int32) -> Bool {
        connections.withLock { state in
            guard !state.stopping else { return false }
            state.descriptors.insert(descriptor)
            return true
        }
    }

    /// Unregisters and closes a connection (only its own thread calls this).
    func unregisterAndClose(_ descriptor: Int32) {
        connections.withLock { _ = $0.descriptors.remove(descriptor) }
        Socket.close(descriptor)
    }

    /// Marks the run stopping, wakes the accept loop and shuts every connection down.
    func beginStopping() {
        connections.withLock { state in
            state.stopping = true
            for descriptor in state.descriptors { Socket.shutdownBoth(descriptor) }
        }
        Socket.write(byteTo: wakeWrite)
    }
}

/// The shared state of a server: routes, recorded requests and counters.
final class ServerCore: Sendable {
    struct State {
        var routes: [Route] = []
        var cursors: [Int: Int] = [:]
        var nextRouteID = 0
        var fallback: StubResponse?
        var requests: [RecordedRequest] = []
        var inFlight = 0
        var maxInFlight = 0
        var nextConnectionID = 0
        var nextSequenceNumber = 0
        var newConnectionDelay = Duration.zero
        var maximumRecordedBodySize = 8 << 20
        /// Where request bodies stall (see `StubServer.stallRequestBodies(afterBytes:)`), if anywhere.
        var bodyStall: Int?
        /// Counts calls of `StubServer.resumeRequestBodies()`: a stall lasts until it changes.
        var bodyStallGeneration = 0
        var stalledBodies = 0
        var run: Run?
    }

    let state = Locked(State())

    func addRoute(method: String?, path: String, query: [String: String], responder: Route.Responder) {
        state.withLock { state in
            state.routes.append(
                Route(id: state.nextRouteID, method: method, path: path, query: query, responder: responder))
            state.nextRouteID += 1
        }
    }

    func nextConnectionID() -> Int {
        state.withLock { state in
            state.nextConnectionID += 1
            return state.nextConnectionID
        }
    }

    /// Records a request and counts it in flight.
    func record(
        _ head: RequestHead, body: Data, connectionID: Int, bodyLength: Int? = nil, bodyFingerprint: String? = nil
    ) -> RecordedRequest {
        state.withLock { state in
            let request = RecordedRequest(
                method: head.method, target: head.target, headers: head.headers, body: body, connectionID: connectionID,
                sequenceNumber: state.nextSequenceNumber, bodyLength: bodyLength, bodyFingerprint: bodyFingerprint)
            state.nextSequenceNumber += 1
            state.requests.append(request)
            state.inFlight += 1
            state.maxInFlight = max(state.maxInFlight, state.inFlight)
            return request
        }
    }

    func finish() {
        state.withLock { $0.inFlight -= 1 }
    }

    /// Stalls the calling connection once `bodyBytes` of a request body have arrived, if
    /// request bodies stall there, until they are resumed or the run stops; returns `false`
    /// when the run stopped.
    func stallIfAsked(bodyBytes: Int, run: Run) -> Bool {
        let generation = state.withLock { state -> Int? in
            guard let stall = state.bodyStall, bodyBytes >= stall else { return nil }
            state.stalledBodies += 1
            return state.bodyStallGeneration
        }
        guard let generation else { return true }
        defer { state.withLock { $0.stalledBodies -= 1 } }
        // A stalled connection reads nothing, so it cannot see its client go away: it waits
        // for the test to resume it (or the server to stop), checking every few milliseconds.
        while !run.isStopping, state.withLock({ $0.bodyStallGeneration == generation }) {
            usleep(2_000)
        }
        return !run.isStopping
    }

    /// The response for a request: the most recently added matching route, else the fallback.
    func response(for request: RecordedRequest) -> StubResponse {
        let responder: Route.Responder? = state.withLock { state in
            guard let route = state.routes.last(where: { $0.matches(request) }) else {
                return state.fallback.map { .fixed($0) }
            }
            if case .inTurn(let responses) = route.responder {
                let cursor = state.cursors[route.id, default: 0]
                state.cursors[route.id] = cursor + 1
                guard !responses.isEmpty else { return nil }
                return .fixed(responses[min(cursor, responses.count - 1)])
            }
            return route.responder
        }
        switch responder {
        case .fixed(let response): return response
        case .handler(let handler): return handler(request)
        case .inTurn, nil:
            return .text(
                "No stub route matches \(request.method) \(request.path). Add one with StubServer.route(_:_:query:respond:).",
                status: 404)
        }
    }
}
