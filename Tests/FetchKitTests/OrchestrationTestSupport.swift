import Foundation
import Locking
import Testing

@testable import FetchKit

/// A test waited longer than its generous bound: something hung.
struct TimedOut: Error, CustomStringConvertible {
    let what: String
    var description: String { "timed out waiting for \(what)" }
}

/// A value delivered once from any thread, awaited with a bound.
///
/// `fulfill` records every call, so tests can check that a callback ran exactly once.
final class Delivery<Value: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: every stored property is guarded by `lock`.
    private let lock = NSLock()
    private var values: [Value] = []
    private var waiters: [CheckedContinuation<Value, any Error>] = []

    func fulfill(_ value: Value) {
        let toResume: [CheckedContinuation<Value, any Error>] = lock.withLock {
            values.append(value)
            defer { waiters.removeAll() }
            return waiters
        }
        for waiter in toResume { waiter.resume(returning: value) }
    }

    /// How many times `fulfill` was called.
    var count: Int { lock.withLock { values.count } }

    /// Every value delivered, in order.
    var all: [Value] { lock.withLock { values } }

    /// The first value, waiting at most `seconds` for it.
    func value(within seconds: Double = 30, _ what: String = "a delivery") async throws -> Value {
        let timeout = Task {
            try await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
            self.fail(what)
        }
        defer { timeout.cancel() }
        return try await withCheckedThrowingContinuation { continuation in
            let first: Value? = lock.withLock {
                if let first = values.first { return first }
                waiters.append(continuation)
                return nil
            }
            if let first { continuation.resume(returning: first) }
        }
    }

    private func fail(_ what: String) {
        let toResume: [CheckedContinuation<Value, any Error>] = lock.withLock {
            defer { waiters.removeAll() }
            return waiters
        }
        for waiter in toResume { waiter.resume(throwing: TimedOut(what: what)) }
    }
}

/// Counts jobs in flight and remembers the most seen at once.
final class InFlightCounter: @unchecked Sendable {
    // @unchecked Sendable: every stored property is guarded by `lock`.
    private let lock = NSLock()
    private var current = 0
    private var peak = 0
    private var started = 0

    func enter() {
        lock.withLock {
            current += 1
            started += 1
            peak = max(peak, current)
        }
    }

    func leave() {
        lock.withLock { current -= 1 }
    }

    var maximum: Int { lock.withLock { peak } }
    var startedCount: Int { lock.withLock { started } }
    var inFlight: Int { lock.withLock { current } }
}

/// Waits until `condition` holds, checking between short sleeps, for at most `seconds`.
///
/// The sleep only paces the polling; no assertion depends on how long anything takes.
func waitUntil(
    _ what: String, within seconds: Double = 30, _ condition: @Sendable () -> Bool
) async throws {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
        if Date() > deadline { throw TimedOut(what: what) }
        try await Task.sleep(nanoseconds: 1_000_000)
    }
}

/// A gate that async work waits at until the test opens it.
final class Gate: @unchecked Sendable {
    // @unchecked Sendable: every stored property is guarded by `lock`.
    private let lock = NSLock()
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        await withCheckedContinuation { continuation in
            let passes = lock.withLock {
                if isOpen { return true }
                waiters.append(continuation)
                return false
            }
            if passes { continuation.resume() }
        }
    }

    var waiting: Int { lock.withLock { waiters.count } }

    func open() {
        let toResume = lock.withLock {
            isOpen = true
            defer { waiters.removeAll() }
            return waiters
        }
        for waiter in toResume { waiter.resume() }
    }
}

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A plain URLSession GET whose task is cancelled with the calling Swift task, standing in
/// for FetchKit's client in the orchestration tests that only need bytes from the stub server.
enum OrchestrationHTTP {
    struct BadStatus: Error {
        let status: Int
    }

    static func get(_ url: URL) async throws -> Data {
        let box = Locked<(task: URLSessionDataTask?, cancelled: Bool)>((nil, false))
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Data, any Error>) in
                var request = URLRequest(url: url)
                request.timeoutInterval = 60
                let task = URLSession.shared.dataTask(with: request) { data, response, error in
                    if let error {
                        continuation.resume(throwing: error)
                    } else if let status = (response as? HTTPURLResponse)?.statusCode, !(200..<300).contains(status) {
                        continuation.resume(throwing: BadStatus(status: status))
                    } else {
                        continuation.resume(returning: data ?? Data())
                    }
                }
                let cancelled = box.withLock { box in
                    box.task = task
                    return box.cancelled
                }
                task.resume()
                if cancelled { task.cancel() }
            }
        } onCancel: {
            box.withLock { box in
                box.cancelled = true
                return box.task
            }?.cancel()
        }
    }
}

/// A deterministic random number generator (SplitMix64), so randomized tests replay exactly.
struct OrchestrationRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
