import AsyncHTTPClient
import FetchKit
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Receives one response from `HTTPClient`: its head, its body (in memory or written to a
/// file as it arrives), and the byte counts FetchKit reads as progress.
///
/// `HTTPClient` calls the delegate methods one at a time on the request's event loop; the
/// progress is read from other threads, so all state sits in a `NIOLockedValueBox`.
final class ResponseCollector: HTTPClientResponseDelegate, Sendable {
    typealias Response = TransportResponse

    private struct State {
        var head: HTTPResponseHead?
        var body = ByteBuffer()
        var handle: FileHandle?
        var fileError: (any Error)?
        var sent: Int64 = 0
        var received: Int64 = 0
        var expected: Int64?
        /// Set by ``cancel()``: no file is created or written after it.
        var cancelled = false
    }

    private let url: URL
    private let file: URL?
    private let bodySize: Int64
    private let state = NIOLockedValueBox(State())

    init(url: URL, file: URL?, bodySize: Int64) {
        self.url = url
        self.file = file
        self.bodySize = bodySize
    }

    var progress: TransferProgress {
        state.withLockedValue { state in
            TransferProgress(
                bytesSent: state.sent, totalBytesToSend: bodySize, bytesReceived: state.received,
                totalBytesToReceive: state.expected)
        }
    }

    func didSendRequestPart(task: HTTPClient.Task<Response>, _ part: IOData) {
        state.withLockedValue { $0.sent += Int64(part.readableBytes) }
    }

    func didReceiveHead(task: HTTPClient.Task<Response>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        state.withLockedValue { state in
            state.head = head
            state.expected = head.headers.first(name: "Content-Length").flatMap { Int64($0) }
            // The file is created under the lock, so a cancellation either comes first (and no
            // file is created) or finds the handle and removes the file.
            guard let file, !state.cancelled else { return }
            let manager = FileManager.default
            try? manager.removeItem(at: file)
            if manager.createFile(atPath: file.path, contents: nil) {
                do { state.handle = try FileHandle(forWritingTo: file) } catch { state.fileError = error }
            } else {
                state.fileError = CocoaError(.fileWriteUnknown)
            }
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    /// Stops writing the body: closes the file and removes it, and creates none later. Called
    /// before the `HTTPClient` task is cancelled, so a head or body part that arrives meanwhile
    /// writes nothing.
    func cancel() {
        state.withLockedValue { state in
            state.cancelled = true
            if let handle = state.handle {
                try? handle.close()
                state.handle = nil
                if let file { try? FileManager.default.removeItem(at: file) }
            }
        }
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Response>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        state.withLockedValue { state in
            state.received += Int64(buffer.readableBytes)
            if let handle = state.handle {
                guard state.fileError == nil else { return }
                do { try handle.write(contentsOf: Data(buffer.readableBytesView)) } catch { state.fileError = error }
            } else if file == nil {
                var buffer = buffer
                state.body.writeBuffer(&buffer)
            }
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveError(task: HTTPClient.Task<Response>, _ error: any Error) {
        state.withLockedValue { state in
            try? state.handle?.close()
            state.handle = nil
        }
    }

    func didFinishRequest(task: HTTPClient.Task<Response>) throws -> Response {
        let ended = state.withLockedValue { state -> State in
            try? state.handle?.close()
            state.handle = nil
            // An empty body writes no part: its file is created here, unless cancelled.
            if let file, state.head != nil, !state.cancelled, !FileManager.default.fileExists(atPath: file.path) {
                _ = FileManager.default.createFile(atPath: file.path, contents: nil)
            }
            return state
        }
        if let error = ended.fileError { throw error }
        guard let head = ended.head else { throw HTTPClientError.remoteConnectionClosed }
        return Self.response(url: url, head: head, data: Data(ended.body.readableBytesView))
    }

    /// A transport response from a head and a body.
    static func response(url: URL, head: HTTPResponseHead, data: Data) -> TransportResponse {
        var fields: [String: String] = [:]
        for (name, value) in head.headers {
            if let existing = fields[name] { fields[name] = existing + ", " + value } else { fields[name] = value }
        }
        // A body NIO decompressed (gzip, deflate) no longer matches these; a body in a coding
        // NIO does not know arrives as sent, and keeps them (RFC 9110 §8.4).
        let coding = fields.first { $0.key.lowercased() == "content-encoding" }?.value
        if let coding, ["gzip", "deflate"].contains(coding.trimmingCharacters(in: .whitespaces).lowercased()) {
            fields = fields.filter { !["content-encoding", "content-length"].contains($0.key.lowercased()) }
        }
        // The `HTTPURLResponse` is built only if something asks for it (FetchKit reads the
        // status and a header or two without it).
        return TransportResponse(
            url: url, statusCode: Int(head.status.code),
            httpVersion: "HTTP/\(head.version.major).\(head.version.minor)", headerFields: fields, data: data)
    }
}

/// Streams a file into a request body: reads a chunk off the event loop, writes it, and
/// reads the next once the write completes (so at most one chunk is in memory).
struct FileStreamer: Sendable {
    static let chunkSize = 256 * 1024

    let file: URL
    let size: Int64
    let writer: HTTPClient.Body.StreamWriter
    let queue: DispatchQueue

    func start() -> EventLoopFuture<Void> {
        writer.write(.byteBuffer(ByteBuffer())).flatMap { _ in
            self.streamFrom(handle: nil, sent: 0)
        }
    }

    private func streamFrom(handle: FileHandle?, sent: Int64) -> EventLoopFuture<Void> {
        let (promise, future) = makePromise()
        queue.async {
            do {
                let handle = try handle ?? FileHandle(forReadingFrom: file)
                let chunk = try handle.read(upToCount: Self.chunkSize) ?? Data()
                if chunk.isEmpty {
                    try? handle.close()
                    guard sent == size else {
                        promise.fail(UploadFileChanged())
                        return
                    }
                    promise.succeed(())
                    return
                }
                let sentNow = sent + Int64(chunk.count)
                writer.write(.byteBuffer(ByteBuffer(bytes: chunk))).flatMap { _ in
                    self.streamFrom(handle: handle, sent: sentNow)
                }.cascade(to: promise)
            } catch {
                promise.fail(error)
            }
        }
        return future
    }

    private func makePromise() -> (EventLoopPromise<Void>, EventLoopFuture<Void>) {
        let promise = HTTPClient.defaultEventLoopGroup.any().makePromise(of: Void.self)
        return (promise, promise.futureResult)
    }
}

/// The file ended before the size it had when the upload started.
struct UploadFileChanged: Error {}
