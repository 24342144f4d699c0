import Foundation
import Locking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A `URLSession` with a delegate, for the exchanges whose bytes FetchKit counts as they
/// go: downloads (written to their file chunk by chunk) and file uploads.
///
/// Completion-handler tasks do not update their byte counters on Linux until they end,
/// so `URLSessionTransport` sends these exchanges here, where the delegate sees every chunk.
final class StreamingSession: Sendable {
    let session: URLSession
    private let delegate: Delegate

    init(configuration: URLSessionConfiguration) {
        let delegate = Delegate()
        self.delegate = delegate
        self.session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// Starts a task made by `make`, reporting to `exchange`.
    func start(_ exchange: Exchange, make: (URLSession) -> URLSessionTask) -> any TransportTask {
        let task = make(session)
        delegate.register(task.taskIdentifier, exchange)
        exchange.setTask(task)
        task.resume()
        return exchange
    }

    /// One exchange: its response, its body (in memory or in a file), its byte counts, its completion.
    final class Exchange: TransportTask, Sendable {
        private struct State {
            var task: URLSessionTask?
            var response: HTTPURLResponse?
            var body = Data()
            var file: FileHandle?
            var fileError: (any Error)?
            var sent: Int64 = 0
            var expectedToSend: Int64?
            var received: Int64 = 0
            var completed = false
        }

        private let state: Locked<State>
        private let completion: @Sendable (Result<TransportResponse, any Error>) -> Void
        private let file: URL?

        /// - Parameters:
        ///   - file: where the body goes, or `nil` to keep it in memory.
        ///   - expectedToSend: the size of the request body, when known.
        ///   - completion: called once with the response and its body (empty for a file) or the error.
        init(
            file: URL?, expectedToSend: Int64?,
            completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
        ) {
            self.file = file
            self.completion = completion
            self.state = Locked(State(expectedToSend: expectedToSend))
        }

        fileprivate func setTask(_ task: URLSessionTask) {
            state.withLock { $0.task = task }
        }

        func cancel() {
            state.withLock { $0.task }?.cancel()
        }

        var progress: TransferProgress? {
            state.withLock { state in
                let expected = state.response?.expectedContentLength ?? -1
                return TransferProgress(
                    bytesSent: state.sent, totalBytesToSend: state.expectedToSend, bytesReceived: state.received,
                    totalBytesToReceive: expected >= 0 ? expected : nil)
            }
        }

        fileprivate func didReceive(_ response: HTTPURLResponse) {
            var failure: (any Error)?
            if let file {
                let manager = FileManager.default
                if manager.fileExists(atPath: file.path) { try? manager.removeItem(at: file) }
                if manager.createFile(atPath: file.path, contents: nil) {
                    do {
                        let handle = try FileHandle(forWritingTo: file)
                        state.withLock { $0.file = handle }
                    } catch {
                        failure = error
                    }
                } else {
                    failure = CocoaError(.fileWriteUnknown)
                }
            }
            state.withLock { state in
                state.response = response
                state.fileError = failure
                if state.expectedToSend == nil { state.expectedToSend = state.task?.countOfBytesExpectedToSend }
            }
        }

        fileprivate func didReceive(_ data: Data) {
            state.withLock { state in
                state.received += Int64(data.count)
                guard state.fileError == nil else { return }
                if let handle = state.file {
                    do { try handle.write(contentsOf: data) } catch { state.fileError = error }
                } else if file == nil {
                    state.body.append(data)
                }
            }
        }

        fileprivate func didSend(total: Int64, expected: Int64) {
            state.withLock { state in
                state.sent = total
                if expected > 0 { state.expectedToSend = expected }
            }
        }

        fileprivate func didComplete(_ error: (any Error)?) {
            let ended = state.withLock { state -> State? in
                guard !state.completed else { return nil }
                state.completed = true
                try? state.file?.close()
                state.file = nil
                return state
            }
            guard let ended else { return }
            if let error {
                completion(.failure(error))
            } else if let fileError = ended.fileError {
                completion(.failure(fileError))
            } else if let response = ended.response {
                if let file, !FileManager.default.fileExists(atPath: file.path) {
                    // A response without a body never created the file.
                    _ = FileManager.default.createFile(atPath: file.path, contents: nil)
                }
                completion(.success(TransportResponse(response: response, data: ended.body)))
            } else {
                completion(.failure(URLError(.badServerResponse)))
            }
        }
    }

    /// Routes the session's callbacks to the exchanges (its only state, `exchanges`, is a `Locked`).
    private final class Delegate: NSObject, URLSessionDataDelegate, Sendable {
        private let exchanges = Locked<[Int: Exchange]>([:])

        func register(_ identifier: Int, _ exchange: Exchange) {
            exchanges.withLock { $0[identifier] = exchange }
        }

        private func exchange(_ task: URLSessionTask) -> Exchange? {
            exchanges.withLock { $0[task.taskIdentifier] }
        }

        func urlSession(
            _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
            completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
        ) {
            if let response = response as? HTTPURLResponse { exchange(dataTask)?.didReceive(response) }
            completionHandler(.allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            exchange(dataTask)?.didReceive(data)
        }

        func urlSession(
            _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
            totalBytesExpectedToSend: Int64
        ) {
            exchange(task)?.didSend(total: totalBytesSent, expected: totalBytesExpectedToSend)
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            let exchange = exchanges.withLock { $0.removeValue(forKey: task.taskIdentifier) }
            exchange?.didComplete(error)
        }
    }
}
