import Foundation
import Locking
import TestSupport
import Testing

@testable import FetchKit

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
                request.timeoutInterval = Patience.beyondTheTest.timeInterval
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
