import Foundation

/// How far a request's transfer has come: bytes sent and received, and the totals when known.
///
/// Delivered to the `progress` closure of a fetch with a completion
/// (``FetchClient/fetch(_:extracting:group:sharing:isolation:completion:progress:)``), at most
/// every ``FetchClient/Configuration-swift.struct/progressInterval``, and once more, last, with
/// ``isFinished`` set, before the completion, whether the request succeeded or not.
public struct TransferProgress: Sendable, Hashable, CustomStringConvertible {
    /// Body bytes sent so far.
    public var bytesSent: Int64
    /// The size of the request body, when known (`nil` while unknown, 0 without a body).
    public var totalBytesToSend: Int64?
    /// Body bytes received so far.
    public var bytesReceived: Int64
    /// The size of the response body, when the server announced it.
    public var totalBytesToReceive: Int64?
    /// Whether this is the last report of the request (it succeeded, failed or was cancelled).
    public var isFinished: Bool

    /// Creates a progress report.
    ///
    /// - Parameters:
    ///   - bytesSent: body bytes sent.
    ///   - totalBytesToSend: the request body's size, if known.
    ///   - bytesReceived: body bytes received.
    ///   - totalBytesToReceive: the response body's size, if known.
    ///   - isFinished: whether the request has ended.
    public init(
        bytesSent: Int64 = 0, totalBytesToSend: Int64? = nil, bytesReceived: Int64 = 0,
        totalBytesToReceive: Int64? = nil, isFinished: Bool = false
    ) {
        self.bytesSent = bytesSent
        self.totalBytesToSend = totalBytesToSend
        self.bytesReceived = bytesReceived
        self.totalBytesToReceive = totalBytesToReceive
        self.isFinished = isFinished
    }

    /// The fraction done, from 0 to 1: of the upload while the body is being sent, of the
    /// download after; `nil` when the relevant total is unknown (a download without
    /// `Content-Length` until it ends).
    public var fractionCompleted: Double? {
        if let total = totalBytesToSend, total > 0, bytesSent < total {
            return Double(bytesSent) / Double(total)
        }
        if let total = totalBytesToReceive, total > 0 { return min(1, Double(bytesReceived) / Double(total)) }
        return nil
    }

    /// `sent 1.2 MB of 200.0 MB, received 0 B` (and `, finished` at the end).
    public var description: String {
        func size(_ bytes: Int64) -> String {
            let value = Double(bytes)
            if value < 1000 { return "\(bytes) B" }
            if value < 1_000_000 { return String(format: "%.1f kB", value / 1000) }
            if value < 1_000_000_000 { return String(format: "%.1f MB", value / 1_000_000) }
            return String(format: "%.2f GB", value / 1_000_000_000)
        }
        let sent = "sent \(size(bytesSent))" + (totalBytesToSend.map { " of \(size($0))" } ?? "")
        let received = "received \(size(bytesReceived))" + (totalBytesToReceive.map { " of \(size($0))" } ?? "")
        return "\(sent), \(received)" + (isFinished ? ", finished" : "")
    }

    /// The sum of several transfers; a total is known only when every part's is.
    static func sum(_ parts: some Sequence<TransferProgress>, isFinished: Bool) -> TransferProgress {
        var result = TransferProgress(totalBytesToSend: 0, totalBytesToReceive: 0, isFinished: isFinished)
        for part in parts {
            result.bytesSent += part.bytesSent
            result.bytesReceived += part.bytesReceived
            result.totalBytesToSend = result.totalBytesToSend.flatMap { total in
                part.totalBytesToSend.map { total + $0 }
            }
            result.totalBytesToReceive = result.totalBytesToReceive.flatMap { total in
                part.totalBytesToReceive.map { total + $0 }
            }
        }
        return result
    }
}
