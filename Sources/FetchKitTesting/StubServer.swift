public import Foundation

/// A loopback HTTP/1.1 server for tests and offline use: it answers requests on an
/// ephemeral port of 127.0.0.1 with responses you route to it, and records every request
/// it receives.
///
/// The server is pure Swift over POSIX sockets and threads, with no dependencies. It
/// supports keep-alive and pipelined requests, `Content-Length` and chunked request
/// bodies, and it can misbehave on purpose: delay, trickle a body, drop the connection
/// mid-body, or close without answering, charge a handshake-like delay on every new
/// connection (``newConnectionDelay``), or stop reading request bodies partway
/// (``stallRequestBodies(afterBytes:)``). It can be started and stopped many times in one
/// process; each start listens on a fresh ephemeral port unless you choose one.
///
/// For example:
///
/// ```swift
/// let server = StubServer()
/// server.route("GET", "/3/movie/550", respond: .json(#"{"id":550,"popularity":61.4}"#))
/// try server.start()
/// defer { server.stop() }
///
/// let url = server.url("/3/movie/550")
/// // … fetch `url`, then assert what the client sent:
/// #expect(server.receivedRequests.first?.method == "GET")
/// ```
///
/// Routes can be added at any time, also while the server runs. When several routes
/// match a request, the one added last answers, so a test can override a general route.
/// A request that matches no route gets a 404 that names the method and path.
///
/// Each connection is served on its own thread, so a delayed response or a handler that
/// blocks holds up only its own connection. All methods are safe to call from any thread,
/// except that ``stop()`` must not be called from inside a route handler (it waits for
/// every connection, including the handler's own, to finish).
public final class StubServer: Sendable {
    private let core = ServerCore()

    /// Creates a stopped server with no routes. Call ``start(port:)`` to listen.
    public init() {}

    deinit {
        stop()
    }

    // MARK: Lifecycle

    /// Starts listening on 127.0.0.1; does nothing when already running.
    ///
    /// By default each start listens on a fresh ephemeral port the system chooses, so
    /// servers in parallel tests never collide. Pass a port to listen on a known one, such
    /// as an app's staging configuration that names `http://127.0.0.1:8080`.
    ///
    /// - Parameter port: the port to listen on, or 0 (the default) for an ephemeral port.
    /// - Throws: ``StubServerError`` (code `cannotListen`) when the system refuses a loopback
    ///   socket or the chosen port is taken.
    public func start(port: UInt16 = 0) throws(StubServerError) {
        guard core.state.withLock({ $0.run == nil }) else { return }
        let (listener, port) = try Socket.listenOnLoopback(port: port)
        let wake: (read: Int32, write: Int32)
        do {
            wake = try Socket.makePipe()
        } catch {
            Socket.close(listener)
            throw error
        }
        let run = Run(port: port, listener: listener, wakeRead: wake.read, wakeWrite: wake.write)
        let installed = core.state.withLock { state -> Bool in
            guard state.run == nil else { return false }
            state.run = run
            return true
        }
        guard installed else {
            Socket.close(listener)
            Socket.close(wake.read)
            Socket.close(wake.write)
            return
        }
        let core = self.core
        run.group.enter()
        let thread = Thread {
            Self.acceptLoop(run: run, core: core)
            run.group.leave()
        }
        thread.name = "StubServer accept :\(port)"
        thread.start()
    }

    /// Stops listening, closes every connection and waits (up to 10 seconds) until every
    /// connection has finished; does nothing when not running.
    ///
    /// Responses that are being delayed or trickled end at once. After `stop()` returns,
    /// the routes and recorded requests are kept, and ``start(port:)`` may be called again.
    public func stop() {
        guard
            let run = core.state.withLock({ state -> Run? in
                defer { state.run = nil }
                return state.run
            })
        else { return }
        run.beginStopping()
        _ = run.group.wait(timeout: .now() + 10)
        Socket.close(run.wakeRead)
        Socket.close(run.wakeWrite)
    }

    /// A delay charged on the first response of every new connection, as a stand-in for
    /// the TCP and TLS handshakes a real server costs; zero by default.
    ///
    /// Later responses on a kept-alive connection do not pay it, so a client that reuses its
    /// connections is measurably faster than one that churns them, as it is against a real
    /// API over TLS. The delay comes on top of each response's own
    /// ``StubResponse/delayed(by:)``. It may be changed at any time; it applies to
    /// connections whose first response has not been sent yet.
    public var newConnectionDelay: Duration {
        get { core.state.withLock { $0.newConnectionDelay } }
        set { core.state.withLock { $0.newConnectionDelay = max(.zero, newValue) } }
    }

    /// The most body bytes kept in a ``RecordedRequest``; 8 MiB by default, at most 64 MiB.
    ///
    /// A request with a longer `Content-Length` body (a large upload) is not held in memory:
    /// its first bytes are kept in ``RecordedRequest/body``, and its length and fingerprint
    /// are in ``RecordedRequest/bodyLength`` and ``RecordedRequest/bodyFingerprint``.
    public var maximumRecordedBodySize: Int {
        get { core.state.withLock { $0.maximumRecordedBodySize } }
        set { core.state.withLock { $0.maximumRecordedBodySize = min(max(0, newValue), 64 << 20) } }
    }

    /// Makes the server stop reading each request body once `bytes` of it (and at least one)
    /// have arrived, as a server whose link stalls mid-upload does, until
    /// ``resumeRequestBodies()`` is called.
    ///
    /// A test uses it to act while an upload is partway through its body: cancel it, or change
    /// the file it sends, once ``stalledRequestBodies`` says the body has stalled. The client's
    /// writes block once the socket buffers are full. A stalled request is recorded only if its
    /// body is complete after it resumes. For example:
    ///
    /// ```swift
    /// server.stallRequestBodies(afterBytes: 64 * 1024)
    /// let task = client.fetch(Uploads.video(file), extracting: .data) { result in … }
    /// try await waitUntil("the body to stall") { server.stalledRequestBodies == 1 }
    /// task.cancel()
    /// server.resumeRequestBodies()
    /// ```
    ///
    /// - Parameter bytes: how many body bytes of each request the server reads before it stalls.
    public func stallRequestBodies(afterBytes bytes: Int) {
        core.state.withLock { $0.bodyStall = max(0, bytes) }
    }

    /// Lets every stalled request body continue, and stops stalling new ones (until
    /// ``stallRequestBodies(afterBytes:)`` is called again).
    public func resumeRequestBodies() {
        core.state.withLock { state in
            state.bodyStall = nil
            state.bodyStallGeneration += 1
        }
    }

    /// The number of request bodies stalled now by ``stallRequestBodies(afterBytes:)``.
    public var stalledRequestBodies: Int {
        core.state.withLock { $0.stalledBodies }
    }

    /// The number of distinct connections that sent the requests recorded since the server
    /// was created or ``resetRecording()`` was last called.
    public var connectionsUsed: Int {
        core.state.withLock { Set($0.requests.map(\.connectionID)).count }
    }

    /// Whether the server is listening.
    public var isRunning: Bool {
        core.state.withLock { $0.run != nil }
    }

    /// The port the server listens on, or 0 when it is not running.
    public var port: UInt16 {
        core.state.withLock { $0.run?.port ?? 0 }
    }

    /// The server's base URL, such as `http://127.0.0.1:50123`.
    ///
    /// Read it after ``start(port:)``: each start listens on a new port.
    public var baseURL: URL {
        URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/")
    }

    /// A URL on this server for a path and optional query, such as `url("/search?q=swift")`.
    ///
    /// - Parameter pathAndQuery: the part after the port, starting with `/`; it must
    ///   already be percent-encoded where needed.
    /// - Returns: the URL (the base URL when `pathAndQuery` is not a valid URL part).
    public func url(_ pathAndQuery: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(pathAndQuery)") ?? baseURL
    }

    // MARK: Routes

    /// Answers requests that match with a fixed response.
    ///
    /// - Parameters:
    ///   - method: the method to match, such as `"GET"` (case-insensitive), or `nil` for any.
    ///   - path: the decoded path to match exactly, or a prefix ending in `*` (`"/3/movie/*"`).
    ///   - query: query items that must be present with these decoded values (others may be present too).
    ///   - response: the response to send.
    public func route(
        _ method: String? = nil, _ path: String, query: [String: String] = [:], respond response: StubResponse
    ) {
        core.addRoute(method: method, path: path, query: query, responder: .fixed(response))
    }

    /// Answers successive matching requests with successive responses; the last one repeats.
    ///
    /// Use it for retry tests: `respondInTurn: [.status(503), .status(503), .json("{}")]`
    /// fails twice, then succeeds.
    ///
    /// - Parameters:
    ///   - method: the method to match, or `nil` for any.
    ///   - path: the decoded path to match exactly, or a prefix ending in `*`.
    ///   - query: query items that must be present with these decoded values.
    ///   - responses: the responses, in order.
    public func route(
        _ method: String? = nil, _ path: String, query: [String: String] = [:], respondInTurn responses: [StubResponse]
    ) {
        core.addRoute(method: method, path: path, query: query, responder: .inTurn(responses))
    }

    /// Answers matching requests with a response computed from the request.
    ///
    /// The handler runs on the connection's thread, once per request; it may run on
    /// several threads at once.
    ///
    /// - Parameters:
    ///   - method: the method to match, or `nil` for any.
    ///   - path: the decoded path to match exactly, or a prefix ending in `*`.
    ///   - query: query items that must be present with these decoded values.
    ///   - handler: computes the response.
    public func route(
        _ method: String? = nil, _ path: String, query: [String: String] = [:],
        handler: @escaping @Sendable (RecordedRequest) -> StubResponse
    ) {
        core.addRoute(method: method, path: path, query: query, responder: .handler(handler))
    }

    /// Sets the response for requests that match no route (by default a 404 naming the request).
    ///
    /// - Parameter response: the response, or `nil` for the default 404.
    public func setFallback(_ response: StubResponse?) {
        core.state.withLock { $0.fallback = response }
    }

    /// Removes every route (and restarts every `respondInTurn` sequence).
    public func removeAllRoutes() {
        core.state.withLock { state in
            state.routes.removeAll()
            state.cursors.removeAll()
        }
    }

    // MARK: Recording

    /// Every request received so far, in the order their heads and bodies were complete.
    public var receivedRequests: [RecordedRequest] {
        core.state.withLock { $0.requests }
    }

    /// The requests received so far whose decoded path is `path`.
    ///
    /// - Parameter path: the decoded path, such as `"/3/movie/550"`.
    /// - Returns: the matching requests, in order.
    public func requests(to path: String) -> [RecordedRequest] {
        core.state.withLock { $0.requests.filter { $0.path == path } }
    }

    /// The number of requests received whose responses are not finished yet.
    ///
    /// A response counts as finished as its last bytes are written, not after: a client that
    /// has the whole response may send its next request at once on another connection, and a
    /// per-host limit is kept when the two are never counted together.
    public var requestsInFlight: Int {
        core.state.withLock { $0.inFlight }
    }

    /// The largest number of requests that were in flight at once since the server was
    /// created or ``resetRecording()`` was last called.
    public var maxRequestsInFlight: Int {
        core.state.withLock { $0.maxInFlight }
    }

    /// Forgets the recorded requests and resets ``maxRequestsInFlight`` to the current count.
    public func resetRecording() {
        core.state.withLock { state in
            state.requests.removeAll()
            state.maxInFlight = state.inFlight
        }
    }

    /// Waits until the server has received at least `count` requests in total.
    ///
    /// - Parameters:
    ///   - count: the number of requests to wait for.
    ///   - timeout: the longest time to wait; the default, thirty minutes, outlasts a whole
    ///     test suite that keeps a two-core machine busy, so it is reached only when something
    ///     hangs.
    /// - Returns: whether the count was reached before the timeout.
    public func waitForRequests(count: Int, timeout: Duration = HangBound.duration) async -> Bool {
        await waitUntil(timeout: timeout) { $0.requests.count >= count }
    }

    /// Waits until at least `count` requests are in flight at once.
    ///
    /// - Parameters:
    ///   - count: the number of concurrent requests to wait for.
    ///   - timeout: the longest time to wait; the default, thirty minutes, outlasts a whole
    ///     test suite that keeps a two-core machine busy, so it is reached only when something
    ///     hangs.
    /// - Returns: whether the count was reached before the timeout.
    public func waitForRequestsInFlight(count: Int, timeout: Duration = HangBound.duration) async -> Bool {
        await waitUntil(timeout: timeout) { $0.inFlight >= count }
    }

    private func waitUntil(timeout: Duration, _ condition: @escaping @Sendable (ServerCore.State) -> Bool) async -> Bool
    {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while true {
            if core.state.withLock({ condition($0) }) { return true }
            if clock.now >= deadline { return false }
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    // MARK: Accepting

    private static func acceptLoop(run: Run, core: ServerCore) {
        // The wake pipe stays open until `stop()` has written to it and waited: it closes both ends.
        defer { Socket.close(run.listener) }
        while !run.isStopping {
            let ready = Socket.waitReadable(run.listener, run.wakeRead)
            if ready.second || run.isStopping { return }
            guard ready.first else { continue }
            while let descriptor = Socket.accept(from: run.listener) {
                guard run.register(descriptor) else {
                    Socket.close(descriptor)
                    return
                }
                let connection = StubConnection(
                    descriptor: descriptor, connectionID: core.nextConnectionID(), core: core, run: run)
                run.group.enter()
                let thread = Thread {
                    connection.serve()
                    run.unregisterAndClose(descriptor)
                    run.group.leave()
                }
                thread.name = "StubServer connection \(connection.connectionID)"
                thread.start()
            }
        }
    }
}
