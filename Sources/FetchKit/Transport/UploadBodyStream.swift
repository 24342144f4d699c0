import Foundation
import Locking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The body of one file upload as an exchange of ``StreamingSession`` sends it: the file, what
/// its request announced, and how the exchange ended it.
///
/// On Linux, URLSession is FoundationNetworking over libcurl. A body given as a file
/// (`uploadTask(with:fromFile:)`) is read by a reader that pauses libcurl whenever it has no
/// bytes ready and resumes it from a Dispatch read handler; when the task was cancelled
/// meanwhile, the resume calls `curl_easy_pause` on a handle no longer in a transfer, which
/// fails, and FoundationNetworking, which force-tries that call, traps the process (SIGILL). A body
/// given as a stream is read when libcurl asks for bytes and never pauses it, so the upload
/// hands URLSession an ``UploadBodyStream`` over the file instead; cancelling ends the stream
/// (its next read fails, and libcurl abandons the transfer) before the task is cancelled.
final class UploadBody: Sendable {
    let file: URL
    /// The file as the request announced it.
    let expected: FileSnapshot
    private let state = Locked<(ended: Bool, failure: FetchError?)>((false, nil))

    init(file: URL, expected: FileSnapshot) {
        self.file = file
        self.expected = expected
    }

    /// Ends the body: every read from now on fails.
    func end() {
        state.withLock { $0.ended = true }
    }

    var isEnded: Bool { state.withLock { $0.ended } }

    /// The error that ended a read because the file changed or could not be read, if one did.
    var failure: FetchError? { state.withLock { $0.failure } }

    func record(_ failure: FetchError) {
        state.withLock { state in
            if state.failure == nil { state.failure = failure }
        }
    }

    #if canImport(FoundationNetworking)
        /// A stream over the body from its start (URLSession asks for a new one to send the
        /// body again on a fresh connection).
        func makeStream() -> InputStream {
            UploadBodyStream(body: self)
        }
    #endif
}

#if canImport(FoundationNetworking)
    /// A file upload's body as an `InputStream` that URLSession on Linux reads on demand: exactly
    /// the announced bytes, read with ``UploadFileReader``, failing (`read` returns -1) when the
    /// file changes or the exchange ended the body.
    ///
    /// URLSession reads it on its task's serial queue only. Opened again after it was read from
    /// (URLSession sends the same stream again to follow a 307 or 308 redirect), it starts over.
    final class UploadBodyStream: InputStream {
        private let body: UploadBody
        private var reader: UploadFileReader?
        private var status = Stream.Status.notOpen
        private var error: FetchError?

        init(body: UploadBody) {
            self.body = body
            super.init(data: Data())
        }

        override func open() {
            if status == .open, let reader, reader.offset == 0 { return }
            let reader = UploadFileReader(file: body.file, expected: body.expected)
            do throws(FetchError) {
                try reader.open()
                self.reader = reader
                status = .open
            } catch {
                fail(error)
            }
        }

        override func close() {
            reader?.close()
            reader = nil
            if status != .error { status = .closed }
        }

        override var streamStatus: Stream.Status { status }

        override var streamError: (any Error)? { error }

        /// `true` until the end was read, and after a failure, so that URLSession reads again and
        /// sees the failure (it takes a stream without bytes available for a complete body).
        override var hasBytesAvailable: Bool { status == .open || status == .error }

        override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength length: Int) -> Int {
            guard !body.isEnded else {
                status = .error
                return -1
            }
            guard status == .open, let reader else { return -1 }
            do throws(FetchError) {
                let count = try reader.read(into: buffer, count: length)
                if count == 0 {
                    reader.close()
                    status = .atEnd
                }
                return count
            } catch {
                fail(error)
                return -1
            }
        }

        override func getBuffer(
            _ buffer: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, length: UnsafeMutablePointer<Int>
        ) -> Bool {
            false
        }

        override func property(forKey key: Stream.PropertyKey) -> AnyObject? { nil }

        override func setProperty(_ property: AnyObject?, forKey key: Stream.PropertyKey) -> Bool { false }

        override func schedule(in aRunLoop: RunLoop, forMode mode: RunLoop.Mode) {}

        override func remove(from aRunLoop: RunLoop, forMode mode: RunLoop.Mode) {}

        private func fail(_ failure: FetchError) {
            body.record(failure)
            error = failure
            status = .error
            reader?.close()
            reader = nil
        }
    }
#endif
