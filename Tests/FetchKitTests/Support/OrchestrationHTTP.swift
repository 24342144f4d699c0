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
