import Locking

/// The requests in flight that callers share by a key (`fetch(…, sharing:)`): the first caller
/// starts the request, later callers with the same key join it, and every caller gets the
/// first one's value or error, exactly once, each in its own way (continuation, queue, actor).
final class SharedRequests: Sendable {
    private let flights = Locked<[String: Flight]>([:])

    /// Adds `member` to the flight of `key`, starting the request with `start` when none is in
    /// flight; returns the member, which cancels as a request does.
    func join(
        _ key: String, member: Member,
        start: (_ finish: @escaping @Sendable (Result<any Sendable, FetchError>) -> Void) -> any CancellableExecution
    ) {
        let (flight, isNew) = flights.withLock { flights -> (Flight, Bool) in
            if let flight = flights[key] { return (flight, false) }
            let flight = Flight(key: key, owner: self)
            flights[key] = flight
            return (flight, true)
        }
        member.flight = flight
        flight.add(member)
        if isNew { flight.started(start { [flight] result in flight.finish(result) }) }
    }

    /// Forgets `flight` (it has ended): a later caller with its key starts a new request.
    func ended(_ flight: Flight) {
        flights.withLock { flights in
            if flights[flight.key] === flight { flights[flight.key] = nil }
        }
    }

    /// Cancels the request of `key` for every caller waiting for it, and forgets it: a later
    /// caller with the key starts a new request. Does nothing when none is in flight.
    func cancel(key: String) {
        let flight = flights.withLock { flights -> Flight? in
            defer { flights[key] = nil }
            return flights[key]
        }
        flight?.cancelAll()
    }

    /// The number of callers waiting for the request of `key` (0 when none is in flight).
    func waiterCount(forKey key: String) -> Int {
        flights.withLock { $0[key] }?.waiterCount ?? 0
    }

    /// One caller of a shared request.
    final class Member: CancellableExecution {
        let id: Int
        private let handoff: any ResultHandoff
        private let delivery: Delivery
        private let group: CancellationGroup?
        private let state = Locked<(flight: Flight?, finished: Bool)>((nil, false))

        init(id: Int, handoff: any ResultHandoff, delivery: Delivery, group: CancellationGroup?) {
            self.id = id
            self.handoff = handoff
            self.delivery = delivery
            self.group = group
        }

        var flight: Flight? {
            get { state.withLock { $0.flight } }
            set { state.withLock { $0.flight = newValue } }
        }

        var isFinished: Bool { state.withLock { $0.finished } }

        /// Registers the member with its group, once it is in its flight.
        func joined() {
            group?.add(self)
        }

        /// Delivers the flight's result to this member, unless it has already ended (cancelled).
        func finish(_ result: Result<any Sendable, FetchError>) {
            let first = state.withLock { state -> Bool in
                defer { state.finished = true }
                return !state.finished
            }
            guard first else { return }
            group?.remove(self)
            let handoff = handoff
            let deliver: @Sendable () -> Void = {
                switch result {
                case .success(let value):
                    if !handoff.succeed(with: value) {
                        handoff.fail(
                            FetchError(
                                code: .invalidRequest,
                                detail:
                                    "a request shared by its key produced \(type(of: value)), not the value this fetch extracts. "
                                    + "Give requests that extract different types different keys"))
                    }
                case .failure(let error):
                    handoff.fail(error)
                }
            }
            switch delivery {
            case .queue(let queue): queue.async(execute: deliver)
            case .immediate: deliver()
            }
        }

        func cancel() {
            markCancelled()?()
        }

        func markCancelled() -> (() -> Void)? {
            guard !isFinished, let flight else { return nil }
            return { [self] in
                finish(.failure(FetchError(code: .cancelled, detail: "the fetch was cancelled")))
                flight.left(self)
            }
        }

        func stopRetrying() {
            flight?.stopRetrying()
        }
    }

    /// A request in flight and the callers waiting for it.
    final class Flight: Sendable {
        let key: String
        private unowned let owner: SharedRequests
        private struct State {
            var members: [Int: Member] = [:]
            var execution: (any CancellableExecution)?
            var result: Result<any Sendable, FetchError>?
        }
        private let state = Locked(State())

        init(key: String, owner: SharedRequests) {
            self.key = key
            self.owner = owner
        }

        func add(_ member: Member) {
            let ended = state.withLock { state -> Result<any Sendable, FetchError>? in
                if let result = state.result { return result }
                state.members[member.id] = member
                return nil
            }
            if let ended {
                member.finish(ended)
            } else {
                member.joined()
            }
        }

        var waiterCount: Int { state.withLock { $0.members.count } }

        func started(_ execution: any CancellableExecution) {
            let cancel = state.withLock { state -> Bool in
                state.execution = execution
                return state.result == nil && state.members.isEmpty
            }
            if cancel { execution.cancel() }
        }

        /// A member left (cancelled): the request is cancelled when no member waits for it any more.
        func left(_ member: Member) {
            let execution = state.withLock { state -> (any CancellableExecution)? in
                state.members[member.id] = nil
                return state.members.isEmpty && state.result == nil ? state.execution : nil
            }
            execution?.cancel()
        }

        func stopRetrying() {
            state.withLock { $0.execution }?.stopRetrying()
        }

        /// Cancels every member waiting now: each ends with `cancelled`, and the last one to
        /// leave cancels the request (as a group's `cancelAll()` does, every member's work is
        /// taken before any of it runs).
        func cancelAll() {
            let members = state.withLock { Array($0.members.values) }.sorted { $0.id < $1.id }
            let remainingWork = members.compactMap { $0.markCancelled() }
            for work in remainingWork { work() }
        }

        func finish(_ result: Result<any Sendable, FetchError>) {
            owner.ended(self)
            let members = state.withLock { state -> [Member] in
                guard state.result == nil else { return [] }
                state.result = result
                defer { state.members = [:] }
                return Array(state.members.values)
            }
            for member in members.sorted(by: { $0.id < $1.id }) { member.finish(result) }
        }
    }

}

/// The handoff of a shared request itself: extracts the value with the first caller's
/// ``Extraction`` and passes the end to the callers waiting for it.
final class SharedHandoff<Value: Sendable>: ResultHandoff {
    private let extraction: Extraction<Value>
    private let finish: @Sendable (Result<any Sendable, FetchError>) -> Void

    init(_ extraction: Extraction<Value>, finish: @escaping @Sendable (Result<any Sendable, FetchError>) -> Void) {
        self.extraction = extraction
        self.finish = finish
    }

    var acceptsEveryStatus: Bool { extraction.acceptsEveryStatus }

    func extract(_ response: TransportResponse) throws(FetchError) -> @Sendable () -> Void {
        let value = try extraction.extractResponse(response)
        let finish = finish
        return { finish(.success(value)) }
    }

    func fail(_ error: FetchError) { finish(.failure(error)) }

    func succeed(with value: any Sendable) -> Bool {
        finish(.success(value))
        return true
    }
}
