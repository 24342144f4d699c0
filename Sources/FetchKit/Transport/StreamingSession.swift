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
/// The transport's own completion-handler tasks use the same `URLSession`, so all its requests
/// share one connection pool: their response, data and completion go to the handler, not the
/// delegate, while a redirect, a challenge or a body rewind of theirs comes here (a plain request
/// has no body, so its redirect is followed as without a delegate).
///
/// An exchange cancelled while it runs leaves nothing behind: its file is created, written and
/// removed under its lock, so once ``Exchange/cancel()`` has returned no file of it exists or
/// will appear, and a file upload's body stream is ended before its task is cancelled.
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
            /// Whether this exchange created its file (so it removes it when it fails or is cancelled).
            var createdFile = false
            var fileError: (any Error)?
            var sent: Int64 = 0
            var expectedToSend: Int64?
            var received: Int64 = 0
            var cancelled = false
            /// libcurl was about to send the request again after its connection closed
            /// unanswered, and the exchange ended it instead (see ``abandonResend()``).
            var abandoned = false
            var completed = false
            /// Cancelled or abandoned: nothing more of the task's answer is taken.
            var stopped: Bool { cancelled || abandoned }
            /// A streamed exchange's head went to the completion.
            var headDelivered = false
        }

        private let state: Locked<State>
        private let completion: @Sendable (Result<TransportResponse, any Error>) -> Void
        private let file: URL?
        /// The body of a file upload, read from the file as it is sent.
        private let upload: UploadBody?

        /// - Parameters:
        ///   - file: where the body goes, or `nil` to keep it in memory.
        ///   - upload: the body of a file upload, if this exchange is one.
        ///   - expectedToSend: the size of the request body, when known.
        ///   - completion: called once with the response and its body (empty for a file) or the error.
        /// A streamed exchange's body: the head completes the exchange, the chunks go here.
        private let streamed: StreamedBody?

        init(
            file: URL?, upload: UploadBody? = nil, streamTo streamed: StreamedBody? = nil, expectedToSend: Int64?,
            completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
        ) {
            self.file = file
            self.upload = upload
            self.streamed = streamed
            self.completion = completion
            self.state = Locked(State(expectedToSend: expectedToSend))
        }

        fileprivate func setTask(_ task: URLSessionTask) {
            state.withLock { $0.task = task }
        }

        /// Ends an upload's body, removes the file this exchange wrote (and stops it from writing
        /// another), then cancels the task; the exchange then completes with `URLError.cancelled`.
        /// Does nothing to an exchange that has completed.
        func cancel() {
            upload?.end()
            let task = state.withLock { state -> URLSessionTask? in
                guard !state.completed else { return nil }
                state.cancelled = true
                removeFile(&state)
                return state.task
            }
            task?.cancel()
        }

        /// Ends an exchange that libcurl was about to send again on a fresh connection because
        /// the kept-alive one closed without an answer: the task is cancelled, and the exchange
        /// fails at once with ``URLError/Code/networkConnectionLost`` (see
        /// ``Delegate/urlSession(_:task:needNewBodyStream:)``). Does nothing to an exchange that
        /// was cancelled or has completed.
        fileprivate func abandonResend() {
            upload?.end()
            let task = state.withLock { state -> URLSessionTask? in
                guard !state.completed, !state.cancelled else { return nil }
                state.abandoned = true
                return state.task
            }
            // Called on the session's work queue, inside libcurl's rewind: the task's `cancel()`
            // takes that queue synchronously on this toolchain, so it runs once the rewind returns.
            guard let task else { return }
            DispatchQueue.global().async { task.cancel() }
        }

        /// The error of an abandoned resend: the request went out, and its answer was lost.
        static let lostAnswer = URLError(
            .networkConnectionLost,
            userInfo: [
                NSLocalizedDescriptionKey:
                    "the connection closed after the request was sent and before any answer came, so the server may have received it"
            ])

        /// A new stream over an upload's body, to send it again from its start.
        fileprivate func newBodyStream() -> InputStream? {
            #if canImport(FoundationNetworking)
                upload?.makeStream()
            #else
                nil
            #endif
        }

        /// Closes and removes the file this exchange created (called under the lock).
        private func removeFile(_ state: inout State) {
            try? state.file?.close()
            state.file = nil
            if state.createdFile, let file { try? FileManager.default.removeItem(at: file) }
            state.createdFile = false
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
            if streamed != nil {
                let deliver = state.withLock { state -> Bool in
                    guard !state.stopped, !state.completed, !state.headDelivered else { return false }
                    state.response = response
                    state.headDelivered = true
                    return true
                }
                if deliver { completion(.success(TransportResponse(response: response, data: Data()))) }
                return
            }
            state.withLock { state in
                guard !state.stopped, !state.completed else { return }
                state.response = response
                if state.expectedToSend == nil { state.expectedToSend = state.task?.countOfBytesExpectedToSend }
                guard let file, state.file == nil else { return }
                // Created under the lock `cancel()` takes: a cancelled exchange creates no file.
                let manager = FileManager.default
                if manager.fileExists(atPath: file.path) { try? manager.removeItem(at: file) }
                guard manager.createFile(atPath: file.path, contents: nil) else {
                    state.fileError = CocoaError(.fileWriteUnknown)
                    return
                }
                state.createdFile = true
                do {
                    state.file = try FileHandle(forWritingTo: file)
                } catch {
                    state.fileError = error
                }
            }
        }

        fileprivate func didReceive(_ data: Data) {
            if let streamed {
                let counts = state.withLock { state -> Bool in
                    state.received += Int64(data.count)
                    return state.headDelivered && !state.stopped
                }
                if counts { streamed.append(data) }
                return
            }
            state.withLock { state in
                state.received += Int64(data.count)
                guard state.fileError == nil, !state.stopped, !state.completed else { return }
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
                let ended = state
                if ended.stopped || error != nil || ended.fileError != nil || ended.response == nil {
                    removeFile(&state)
                } else {
                    try? state.file?.close()
                    state.file = nil
                }
                return ended
            }
            guard let ended else { return }
            if let streamed, ended.headDelivered {
                // The head went out already: the end is the body's.
                streamed.finish(
                    throwing: ended.cancelled ? URLError(.cancelled) : ended.abandoned ? Self.lostAnswer : error)
                return
            }
            if ended.cancelled {
                completion(.failure(URLError(.cancelled)))
            } else if ended.abandoned {
                completion(.failure(Self.lostAnswer))
            } else if let failure = upload?.failure {
                // The upload's stream stopped because its file changed (libcurl reports only that
                // the transfer was aborted).
                completion(.failure(failure))
            } else if let error {
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

        #if canImport(FoundationNetworking)
            /// Follows a redirect only for a request without a body: FoundationNetworking sends the
            /// redirected request without its body (but with its `Content-Length`, so the server
            /// would wait for bytes that never come), so the 3xx response is the answer instead.
            ///
            /// A redirect that changes the method (`303 See Other`, or a `POST`'s `301` and `302`,
            /// which FoundationNetworking turns into a `GET` without a body) is followed, without
            /// the fields that described the body.
            func urlSession(
                _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
            ) {
                let original = task.originalRequest
                guard original?.carriesBody == true else { return completionHandler(request) }
                let methodChanged = (request.httpMethod ?? "GET") != (original?.httpMethod ?? "GET")
                guard methodChanged, !request.carriesBody else {
                    return completionHandler(nil)
                }
                var followed = request
                for name in ["Content-Length", "Content-Type", "Transfer-Encoding"] {
                    followed.setValue(nil, forHTTPHeaderField: name)
                }
                completionHandler(followed)
            }

            /// Called when libcurl sends a request with a body again on a fresh connection,
            /// because the kept-alive one it was sent on closed without a byte of answer (a
            /// server that timed the idle connection out, or one that applied the request and
            /// then went away).
            ///
            /// URLSession cannot send an in-memory body again (it would send the head and no
            /// body, and wait for an answer until the timeout), and a `POST` or `PATCH` the server
            /// may have applied must not be sent twice behind the caller's back. So only an
            /// idempotent upload whose body can be read again from its start goes again; any
            /// other exchange ends at once as a lost answer, and the client's retry policy
            /// decides what happens next.
            func urlSession(
                _ session: URLSession, task: URLSessionTask,
                needNewBodyStream completionHandler: @escaping @Sendable (InputStream?) -> Void
            ) {
                let exchange = exchange(task)
                let method = HTTPMethod(rawValue: task.originalRequest?.httpMethod ?? "GET")
                if method.isIdempotent, let stream = exchange?.newBodyStream() {
                    completionHandler(stream)
                    return
                }
                completionHandler(nil)
                exchange?.abandonResend()
            }
        #endif

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            let exchange = exchanges.withLock { $0.removeValue(forKey: task.taskIdentifier) }
            exchange?.didComplete(error)
        }
    }
}

extension URLRequest {
    /// Whether the request has a body to send (bytes or a stream).
    var carriesBody: Bool { httpBodyStream != nil || !(httpBody?.isEmpty ?? true) }
}
