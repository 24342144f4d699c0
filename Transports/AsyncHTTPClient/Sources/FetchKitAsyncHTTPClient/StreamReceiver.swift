import AsyncHTTPClient
import FetchKit
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Receives one streamed response from `HTTPClient`: hands its head to the completion at once,
/// then each body part to a `StreamedBody`, and asks `HTTPClient` for the next part
/// only once the body has taken this one (so the server is held back by a slow reader).
///
/// `HTTPClient` calls the delegate methods one at a time on the request's event loop; whether the
/// head went out is read from the task's future too, so it sits in a `NIOLockedValueBox`.
final class StreamReceiver: HTTPClientResponseDelegate, Sendable {
    typealias Response = Void

    private let url: URL
    private let body: StreamedBody
    private let completion: @Sendable (Result<TransportResponse, any Error>) -> Void
    /// Whether the head went to the completion (then every end is the body's).
    private let headDelivered = NIOLockedValueBox(false)

    init(url: URL, body: StreamedBody, completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void) {
        self.url = url
        self.body = body
        self.completion = completion
    }

    func didReceiveHead(task: HTTPClient.Task<Response>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        headDelivered.withLockedValue { $0 = true }
        completion(.success(ResponseCollector.response(url: url, head: head, data: Data())))
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Response>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        let promise = task.eventLoop.makePromise(of: Void.self)
        let chunk = Data(buffer.readableBytesView)
        let body = self.body
        Task {
            await body.write(chunk)
            promise.succeed()
        }
        return promise.futureResult
    }

    func didReceiveError(task: HTTPClient.Task<Response>, _ error: any Error) {}

    func didFinishRequest(task: HTTPClient.Task<Response>) throws {
        body.finish()
    }

    /// The exchange failed: before the head, the completion gets the error; after it, the body.
    func failed(_ error: any Error) {
        if headDelivered.withLockedValue({ $0 }) {
            body.finish(throwing: error)
        } else {
            completion(.failure(error))
        }
    }
}
