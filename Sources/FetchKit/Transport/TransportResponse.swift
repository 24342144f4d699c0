public import Foundation
import Locking

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// What an ``HTTPTransport`` received: the HTTP response and its complete body.
///
/// A transport that does not get an `HTTPURLResponse` from its HTTP stack (the
/// AsyncHTTPClient transport, say) creates it from its parts with
/// ``init(url:statusCode:httpVersion:headerFields:data:)``: the `HTTPURLResponse` is then
/// built only when something reads ``response`` (a `.custom` or `.string` extraction, a
/// cache, an API-failure detector). Building one costs Foundation tens of microseconds,
/// while the client needs only ``statusCode`` and a header or two.
public struct TransportResponse: Sendable {
    /// The complete body.
    public var data: Data
    private var head: Head
    /// A download's body when it is in memory (served from the HTTP cache) rather than in the
    /// file the transport wrote: what ``Extraction/file(to:)`` writes to its destination.
    var bodyInMemory: Data?
    /// A streamed exchange's body, read as it arrives (``Extraction/stream``); `nil` otherwise.
    var streamedBody: StreamedBody?

    /// The response's status line and headers, built on first use when the response was
    /// created from its parts.
    public var response: HTTPURLResponse {
        get { head.response }
        set { head = .built(newValue) }
    }

    /// The response's status code, read without building ``response``.
    public var statusCode: Int {
        switch head {
        case .built(let response): response.statusCode
        case .parts(let parts): parts.statusCode
        }
    }

    /// Creates a transport response.
    ///
    /// - Parameters:
    ///   - response: the HTTP response.
    ///   - data: the complete body.
    public init(response: HTTPURLResponse, data: Data) {
        self.head = .built(response)
        self.data = data
    }

    /// Creates a transport response from the parts of its head, which becomes an
    /// `HTTPURLResponse` only when ``response`` is read (Foundation builds one from any URL,
    /// status and fields, so reading it does not fail).
    ///
    /// - Parameters:
    ///   - url: the URL the response answers (after redirects).
    ///   - statusCode: the status code.
    ///   - httpVersion: the version, such as `"HTTP/1.1"`.
    ///   - headerFields: the header fields (a repeated field joined with `, `).
    ///   - data: the complete body.
    public init(url: URL, statusCode: Int, httpVersion: String?, headerFields: [String: String], data: Data) {
        self.head = .parts(
            ResponseParts(url: url, statusCode: statusCode, httpVersion: httpVersion, headerFields: headerFields))
        self.data = data
    }

    /// The response's header fields (a repeated field joined with `, `), read without building
    /// ``response`` when the transport gave its parts.
    public var headerFields: [String: String] {
        switch head {
        case .parts(let parts):
            return parts.headerFields
        case .built(let response):
            var fields: [String: String] = [:]
            for case (let name as String, let value as String) in response.allHeaderFields { fields[name] = value }
            return fields
        }
    }

    /// The value of the header field `name` (compared without regard to case), read without
    /// building ``response``.
    ///
    /// - Parameter name: the field's name, such as `"Retry-After"`.
    /// - Returns: the value, or `nil` when the response has no such field.
    public func value(forHTTPHeaderField name: String) -> String? {
        switch head {
        case .built(let response):
            return response.value(forHTTPHeaderField: name)
        case .parts(let parts):
            if let value = parts.headerFields[name] { return value }
            return parts.headerFields.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
        }
    }

    private enum Head: Sendable {
        case built(HTTPURLResponse)
        case parts(ResponseParts)

        var response: HTTPURLResponse {
            switch self {
            case .built(let response): response
            case .parts(let parts): parts.response
            }
        }
    }
}

/// The head of a response as a transport received it, and the `HTTPURLResponse` built from
/// it the first time one is asked for (once, whichever thread asks).
private final class ResponseParts: Sendable {
    let url: URL
    let statusCode: Int
    let httpVersion: String?
    let headerFields: [String: String]
    private let built = Locked<HTTPURLResponse?>(nil)

    init(url: URL, statusCode: Int, httpVersion: String?, headerFields: [String: String]) {
        self.url = url
        self.statusCode = statusCode
        self.httpVersion = httpVersion
        self.headerFields = headerFields
    }

    var response: HTTPURLResponse {
        built.withLock { built in
            if let built { return built }
            let response = Self.make(url, statusCode, httpVersion, headerFields)
            built = response
            return response
        }
    }

    private static func make(
        _ url: URL, _ statusCode: Int, _ httpVersion: String?, _ headerFields: [String: String]
    ) -> HTTPURLResponse {
        guard
            let response = HTTPURLResponse(
                url: url, statusCode: statusCode, httpVersion: httpVersion, headerFields: headerFields)
                ?? HTTPURLResponse(url: url, statusCode: statusCode, httpVersion: nil, headerFields: nil)
        else {
            // Foundation's initializer fails only without a URL (on Linux and Apple platforms
            // alike, whatever the status and fields), and `url` is not optional here.
            preconditionFailure("HTTPURLResponse could not be created for a URL and a status code")
        }
        return response
    }
}
