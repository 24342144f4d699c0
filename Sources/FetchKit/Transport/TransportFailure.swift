import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sorts a transport's error into a ``FetchError`` kind a person understands.
///
/// URLSession on Linux reports most wire failures as `URLError` code -1 (unknown) with
/// libcurl's message ("transfer closed with 990 bytes remaining to read", "Illegal or
/// missing hexadecimal sequence in chunked-encoding"); on Apple platforms they have codes
/// of their own (`networkConnectionLost`, `cannotParseResponse`…). Both are read here.
enum TransportFailure {
    /// The kind, the `URLError` code (when there is one) and a short detail to show.
    struct Classified {
        var code: FetchError.Code
        var urlErrorCode: URLError.Code?
        var detail: String?
    }

    static func classify(_ error: any Error) -> Classified {
        guard let urlError = error as? URLError else {
            return Classified(code: .transportFailed, urlErrorCode: nil, detail: "\(error)")
        }
        let message = (error as NSError).localizedDescription
        let lowered = message.lowercased()
        let detail = message.isEmpty || lowered.hasPrefix("the operation could not be completed") ? nil : message
        switch urlError.code {
        case .networkConnectionLost:
            return Classified(code: .connectionLost, urlErrorCode: urlError.code, detail: detail)
        case .cannotParseResponse, .cannotDecodeRawData, .cannotDecodeContentData, .unsupportedURL:
            // The URL was checked before it was sent: "unsupported" here means the answer
            // (libcurl's "Received HTTP/0.9 when not allowed" for a garbage status line).
            return Classified(code: .badResponse, urlErrorCode: urlError.code, detail: detail)
        case .badServerResponse:
            let closed = lowered.contains("empty reply")
            return Classified(
                code: closed ? .connectionLost : .badResponse, urlErrorCode: urlError.code,
                detail: closed ? "the server closed the connection without answering" : detail)
        case .unknown:
            if connectionLostPhrases.contains(where: lowered.contains) {
                return Classified(code: .connectionLost, urlErrorCode: urlError.code, detail: detail)
            }
            if badResponsePhrases.contains(where: lowered.contains) {
                return Classified(code: .badResponse, urlErrorCode: urlError.code, detail: detail)
            }
            return Classified(code: .transportFailed, urlErrorCode: urlError.code, detail: detail)
        default:
            return Classified(code: .transportFailed, urlErrorCode: urlError.code, detail: nil)
        }
    }

    /// libcurl's words for a connection that ended before the response did.
    private static let connectionLostPhrases = [
        "transfer closed", "connection reset", "recv failure", "send failure", "empty reply",
        "connection died", "partial file", "connection was reset",
    ]

    /// libcurl's words for an answer that is not valid HTTP.
    private static let badResponsePhrases = [
        "chunked", "unencoding", "content encoding", "content-encoding", "weird server reply",
        "unsupported http version", "invalid status line", "http/0.9", "header", "malformed",
    ]
}
