public import Foundation
import Locking

/// Writes the body of a ``StubResponse/stream(status:headers:_:)`` response, chunk by chunk,
/// from the connection's own thread.
public final class StubStreamWriter: Sendable {
    private let sendChunk: @Sendable (Data) -> Bool
    private let wait: @Sendable (Duration) -> Bool
    private let dropped = Locked(false)
    private let written = Locked(0)

    init(send: @escaping @Sendable (Data) -> Bool, pause: @escaping @Sendable (Duration) -> Bool) {
        self.sendChunk = send
        self.wait = pause
    }

    /// Sends `data` as one chunk; `false` when the client has gone or the server is stopping.
    ///
    /// - Parameter data: the bytes (nothing is sent for none).
    /// - Returns: whether the client is still there to read on.
    @discardableResult
    public func write(_ data: Data) -> Bool {
        guard !dropped.withLock({ $0 }) else { return false }
        guard !data.isEmpty else { return true }
        let sent = sendChunk(data)
        if sent { written.withLock { $0 += data.count } }
        return sent
    }

    /// Sends `text` in UTF-8 as one chunk; `false` when the client has gone.
    ///
    /// - Parameter text: the text.
    /// - Returns: whether the client is still there to read on.
    @discardableResult
    public func write(_ text: String) -> Bool { write(Data(text.utf8)) }

    /// Waits `duration`; `false` (early) when the client closes the connection or the server stops.
    ///
    /// - Parameter duration: how long to wait.
    /// - Returns: whether the client is still there.
    @discardableResult
    public func pause(_ duration: Duration) -> Bool { wait(duration) }

    /// Ends the response by closing the connection without the chunked body's last chunk: the
    /// client sees a body cut off. Writes after it do nothing.
    public func dropConnection() { dropped.withLock { $0 = true } }

    /// The body bytes written so far.
    public var bytesWritten: Int { written.withLock { $0 } }

    var isDropped: Bool { dropped.withLock { $0 } }
}
