import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Turns `HTTPClient` and NIO errors into the `URLError` codes FetchKit classifies, so a
/// failure over this transport has the same `FetchError` code as over URLSession, and no
/// NIO type reaches the caller. The `URLError`s carry no URL.
enum ErrorMapping {
    static func urlError(for error: any Error) -> any Error {
        if error is URLError { return error }
        if let error = error as? HTTPClientError {
            switch error {
            case .cancelled, .requestStreamCancelled, .alreadyShutdown:
                return URLError(.cancelled)
            case .remoteConnectionClosed, .bodyLengthMismatch, .uncleanShutdown:
                return URLError(.networkConnectionLost)
            case .deadlineExceeded, .readTimeout, .writeTimeout, .getConnectionFromPoolTimeout:
                return URLError(.timedOut)
            case .connectTimeout, .tlsHandshakeTimeout, .socksHandshakeTimeout, .httpProxyHandshakeTimeout:
                return URLError(.cannotConnectToHost)
            case .redirectLimitReached, .redirectCycleDetected:
                return URLError(.httpTooManyRedirects)
            case .invalidURL, .emptyHost, .emptyScheme:
                return URLError(.unsupportedURL)
            default:
                return URLError(.cannotParseResponse)
            }
        }
        if let error = error as? HTTPParserError {
            // The connection closed before the message was complete: a lost connection, as libcurl says.
            return error == .invalidEOFState ? URLError(.networkConnectionLost) : URLError(.cannotParseResponse)
        }
        if error is UploadFileChanged { return URLError(.networkConnectionLost) }
        if let error = error as? IOError {
            switch error.errnoCode {
            case ECONNREFUSED: return URLError(.cannotConnectToHost)
            case ECONNRESET, EPIPE: return URLError(.networkConnectionLost)
            default: return URLError(.cannotConnectToHost)
            }
        }
        if error is ChannelError { return URLError(.cannotConnectToHost) }
        let text = String(describing: error).lowercased()
        if text.contains("refused") || text.contains("connect") { return URLError(.cannotConnectToHost) }
        if text.contains("decompression") || text.contains("inflate") { return URLError(.cannotDecodeContentData) }
        return URLError(.unknown)
    }
}
