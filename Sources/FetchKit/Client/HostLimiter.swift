import Locking

/// Limits the requests a client has on the wire per host, queueing the rest in order.
///
/// URLSession on Linux lets libcurl open 6 connections per host and queues further tasks
/// inside the session, where the request's timeout already runs. The limiter keeps at most
/// `limit` requests *running* per host (their timeout clocks on). When the transport caps
/// its own connections per host (``HTTPTransport/connectionLimitPerHost``), up to
/// `lookAhead` more are handed to it early, *parked*: they wait inside the transport for
/// the next free kept-alive connection, so no connection sits idle between two requests
/// (and libcurl keeps its connections instead of closing and reopening them). A parked
/// request's timeout clock starts when a running request of its host ends, the moment it
/// could start.
final class HostLimiter: Sendable {
    /// What the limiter tells a request it admits.
    enum Admission {
        /// The request runs now: its timeout clock starts.
        case running
        /// The request is handed to the transport ahead of time; its clock starts when
        /// `startClock` is called.
        case parked
    }

    /// Identifies one attempt of one request. Each attempt holds its own slot: a late
    /// completion of a timed-out attempt frees that attempt's slot, never its retry's.
    struct Token: Hashable {
        /// The request's identifier.
        let request: Int
        /// The attempt's number, from 1.
        let attempt: Int
    }

    private struct Waiter {
        let token: Token
        let parkable: Bool
        /// Told what happens to the slot: a reference, not three closures, so that asking for
        /// a slot allocates nothing.
        let holder: any SlotHolder
    }

    private typealias Parked = Waiter

    private struct HostState {
        var running: Set<Token> = []
        var parked: [Parked] = []
        var waiting: [Waiter] = []
        var head = 0

        var isIdle: Bool { running.isEmpty && parked.isEmpty && head >= waiting.count }

        /// Drops the admitted waiters an idle host still holds (and the requests they reference),
        /// keeping the collections' storage for the host's next request.
        mutating func clearIdle() {
            waiting.removeAll(keepingCapacity: true)
            head = 0
        }
    }

    let limit: Int
    let lookAhead: Int
    private let hosts = Locked<[String: HostState]>([:])

    /// Creates a limiter.
    ///
    /// - Parameters:
    ///   - limit: the most requests running per host.
    ///   - lookAhead: how many more may be parked in the transport per host.
    init(limit: Int, lookAhead: Int = 0) {
        self.limit = max(1, limit)
        self.lookAhead = max(0, lookAhead)
    }

    /// The requests of every host: running, parked in the transport, and waiting for a slot.
    var counts: (running: Int, parked: Int, waiting: Int) {
        hosts.withLock { hosts in
            hosts.values.reduce(into: (0, 0, 0)) { sum, host in
                sum.0 += host.running.count
                sum.1 += host.parked.count
                sum.2 += host.waiting.count - host.head
            }
        }
    }

    /// Admits the request now if the host has room, or later, in order, when it has.
    ///
    /// - Parameters:
    ///   - host: the request's host and port.
    ///   - token: identifies the attempt in later calls.
    ///   - parkable: whether the request may be parked (only idempotent ones are: a parked
    ///     request may have to be sent again, see `release(host:token:failed:)`).
    ///   - holder: told once when the request is admitted, running or parked
    ///     (``SlotHolder/slotGranted(_:admission:)``); once, later, when a parked request could
    ///     start (``SlotHolder/slotClockStarted(_:)``); and when a parked request should be handed
    ///     to the transport again, its first exchange cancelled without a result
    ///     (``SlotHolder/slotResend(_:)``; it keeps its admission).
    func acquire(host: String, token: Token, parkable: Bool, holder: any SlotHolder) {
        let waiter = Waiter(token: token, parkable: parkable, holder: holder)
        let admission = hosts.withLock { hosts -> Admission? in
            // Changed in place: a copy of the host's state would copy its collections too.
            admitOrQueue(waiter, &hosts[host, default: HostState()])
        }
        if let admission { holder.slotGranted(token, admission: admission) }
    }

    /// Ends the exchange of `token` (running or parked): a parked request of the host, if
    /// any, starts its clock, and the next waiters are admitted.
    ///
    /// When a running exchange ended without a response (`failed`: cancelled, timed out, its
    /// connection lost), every parked request of the host is also sent again: libcurl does
    /// not always move a request waiting inside it to the connection slot a cancelled transfer
    /// frees, so a parked request could sit there until its backstop timeout. Parked requests
    /// have not been sent (the transport had no free connection for them) and are idempotent,
    /// so sending them again is safe.
    func release(host: String, token: Token, failed: Bool = false) {
        let (started, unparked, next) = hosts.withLock { hosts -> (Waiter?, [Waiter], [(Waiter, Admission)]) in
            // One lookup, and the host's state changed in place.
            guard let index = hosts.index(forKey: host) else { return (nil, [], []) }
            let outcome = release(token, failed: failed, &hosts.values[index])
            Self.settle(index, &hosts)
            return outcome
        }
        // Resent before the promoted one's clock starts: a request sends itself again only while parked.
        for waiter in unparked { waiter.holder.slotResend(waiter.token) }
        if let started { started.holder.slotClockStarted(started.token) }
        for (waiter, admission) in next { waiter.holder.slotGranted(waiter.token, admission: admission) }
    }

    /// Ends the exchange of `token` in `state`: what ``release(host:token:failed:)`` does under the lock.
    private func release(
        _ token: Token, failed: Bool, _ state: inout HostState
    ) -> (started: Waiter?, unparked: [Waiter], next: [(Waiter, Admission)]) {
        var started: Waiter?
        var unparked: [Waiter] = []
        if state.running.remove(token) != nil {
            if failed { unparked = state.parked }
            if !state.parked.isEmpty {
                let promoted = state.parked.removeFirst()
                state.running.insert(promoted.token)
                started = promoted
            }
        } else if let index = state.parked.firstIndex(where: { $0.token == token }) {
            state.parked.remove(at: index)
        } else {
            return (nil, [], [])
        }
        var next: [(Waiter, Admission)] = []
        while state.head < state.waiting.count {
            let waiter = state.waiting[state.head]
            guard let admission = admit(waiter, &state) else { break }
            state.head += 1
            next.append((waiter, admission))
        }
        if state.head > 64 && state.head * 2 > state.waiting.count {
            state.waiting.removeFirst(state.head)
            state.head = 0
        }
        return (started, unparked, next)
    }

    /// Removes a waiter that no longer wants a slot; returns `false` when it was not waiting
    /// (it has been admitted, or was never queued).
    @discardableResult
    func cancelWaiting(host: String, token: Token) -> Bool {
        hosts.withLock { hosts -> Bool in
            guard let index = hosts.index(forKey: host),
                let position = hosts.values[index].waiting[hosts.values[index].head...].firstIndex(where: {
                    $0.token == token
                })
            else { return false }
            hosts.values[index].waiting.remove(at: position)
            Self.settle(index, &hosts)
            return true
        }
    }

    /// How many hosts keep their state while idle: a host's next request then reuses its
    /// collections' storage instead of allocating them again.
    static let idleHostsKept = 16

    /// Clears the host at `index` when it is idle, and removes it when more than
    /// ``idleHostsKept`` hosts are kept.
    private static func settle(_ index: Dictionary<String, HostState>.Index, _ hosts: inout [String: HostState]) {
        guard hosts.values[index].isIdle else { return }
        if hosts.count > idleHostsKept {
            hosts.remove(at: index)
        } else {
            hosts.values[index].clearIdle()
        }
    }

    /// Admits `waiter` in `state`, or queues it: what ``acquire(host:token:parkable:holder:)`` does under the lock.
    private func admitOrQueue(_ waiter: Waiter, _ state: inout HostState) -> Admission? {
        if let admission = admit(waiter, &state) { return admission }
        state.waiting.append(waiter)
        return nil
    }

    private func admit(_ waiter: Waiter, _ state: inout HostState) -> Admission? {
        if state.running.count < limit {
            state.running.insert(waiter.token)
            return .running
        }
        if waiter.parkable, state.parked.count < lookAhead {
            state.parked.append(waiter)
            return .parked
        }
        return nil
    }
}

/// What waits for a slot of a ``HostLimiter``: told when its slot is granted, when a parked
/// request's clock starts and when a parked request must be sent again.
protocol SlotHolder: AnyObject, Sendable {
    /// The slot of `token` is granted, running or parked.
    func slotGranted(_ token: HostLimiter.Token, admission: HostLimiter.Admission)
    /// The parked request of `token` could start now: its clock starts.
    func slotClockStarted(_ token: HostLimiter.Token)
    /// The parked request of `token` is to be handed to the transport again.
    func slotResend(_ token: HostLimiter.Token)
}
