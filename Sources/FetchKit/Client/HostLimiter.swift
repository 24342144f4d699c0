/// Limits the requests a client has in flight per host, queueing the rest in order.
///
/// URLSession on Linux lets libcurl open 6 connections per host and queues the rest
/// inside the session, where the request's timeout already runs. By holding requests
/// here instead, a request's timeout starts only when it is handed to the transport.
final class HostLimiter: Sendable {
    private struct Waiter {
        let token: Int
        let grant: @Sendable () -> Void
    }

    private struct HostState {
        var active = 0
        var waiting: [Waiter] = []
        var head = 0
    }

    private let limit: Int
    private let hosts = Locked<[String: HostState]>([:])

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Runs `grant` now if the host has a free slot, or later when one frees up.
    func acquire(host: String, token: Int, grant: @escaping @Sendable () -> Void) {
        let grantedNow = hosts.withLock { hosts -> Bool in
            var state = hosts[host, default: HostState()]
            defer { hosts[host] = state }
            if state.active < limit {
                state.active += 1
                return true
            }
            state.waiting.append(Waiter(token: token, grant: grant))
            return false
        }
        if grantedNow { grant() }
    }

    /// Frees a slot; the next waiter, if any, takes it.
    func release(host: String) {
        let next = hosts.withLock { hosts -> Waiter? in
            guard var state = hosts[host] else { return nil }
            defer { hosts[host] = state.active == 0 && state.head >= state.waiting.count ? nil : state }
            if state.head < state.waiting.count {
                let waiter = state.waiting[state.head]
                state.head += 1
                if state.head > 64 && state.head * 2 > state.waiting.count {
                    state.waiting.removeFirst(state.head)
                    state.head = 0
                }
                return waiter
            }
            state.active = max(0, state.active - 1)
            return nil
        }
        next?.grant()
    }

    /// Removes a waiter that no longer wants a slot; returns `false` when it was not waiting
    /// (it has been granted a slot, or was never queued).
    @discardableResult
    func cancelWaiting(host: String, token: Int) -> Bool {
        hosts.withLock { hosts -> Bool in
            guard var state = hosts[host],
                let index = state.waiting[state.head...].firstIndex(where: { $0.token == token })
            else { return false }
            state.waiting.remove(at: index)
            hosts[host] = state
            return true
        }
    }

    /// The number of requests in flight and waiting for `host` (for tests).
    func counts(host: String) -> (active: Int, waiting: Int) {
        hosts.withLock { hosts in
            guard let state = hosts[host] else { return (0, 0) }
            return (state.active, state.waiting.count - state.head)
        }
    }
}
