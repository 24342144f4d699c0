import FetchKitTesting
import Locking

/// Fails, once, the first request that arrives on a kept-alive connection reused (one that
/// carried a request before), as a server that went away after reading it would; every other
/// request gets the route's answer.
///
/// Whether libcurl reuses a connection depends on timing (it drops one that stayed idle for two
/// minutes), so a test sends requests one after the other until ``connection`` is set.
final class ReusedConnectionFault: Sendable {
    private let state = Locked<(connections: Set<Int>, failed: Int?)>(([], nil))
    private let fault: StubResponse

    /// - Parameter fault: what the failed request gets, such as ``StubResponse/closeWithoutAnswer``.
    init(_ fault: StubResponse) {
        self.fault = fault
    }

    /// The connection whose request was failed, once one was.
    var connection: Int? {
        state.withLock { $0.failed }
    }

    /// A route handler: `answer`, or the fault for the first request on a reused connection.
    func handler(answering answer: StubResponse) -> @Sendable (RecordedRequest) -> StubResponse {
        { [self] request in
            let fails = state.withLock { state -> Bool in
                let reused = !state.connections.insert(request.connectionID).inserted
                guard reused, state.failed == nil else { return false }
                state.failed = request.connectionID
                return true
            }
            return fails ? fault : answer
        }
    }
}
