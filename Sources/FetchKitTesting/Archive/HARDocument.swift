import FetchKit
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The HAR 1.2 format (http://www.softwareishard.com/blog/har-12-spec/) as `Codable` values, and
/// its mapping to ``HTTPArchive/Entry``. Reading is lenient where browsers' files differ (most
/// fields optional); writing fills every field the format requires.
enum HARDocument {
    struct File: Codable {
        var log: Log
    }

    struct Log: Codable {
        var version: String?
        var creator: Creator?
        var entries: [Entry]
    }

    struct Creator: Codable {
        var name: String?
        var version: String?
    }

    struct Entry: Codable {
        var startedDateTime: String?
        var time: Double?
        var request: Request
        var response: Response
        var cache: Ignored?
        var timings: Timings?
    }

    /// A field read past whatever it holds, and written as an empty object.
    struct Ignored: Codable {
        init() {}
        init(from decoder: any Decoder) throws {}
        func encode(to encoder: any Encoder) throws {
            _ = encoder.container(keyedBy: NoKeys.self)
        }
        private enum NoKeys: CodingKey {}
    }

    struct Timings: Codable {
        var send: Double?
        var wait: Double?
        var receive: Double?
    }

    struct Field: Codable {
        var name: String
        var value: String
    }

    struct Request: Codable {
        var method: String
        var url: String
        var httpVersion: String?
        var cookies: [Field]?
        var headers: [Field]?
        var queryString: [Field]?
        var postData: Content?
        var headersSize: Int?
        var bodySize: Int?
    }

    struct Response: Codable {
        var status: Int
        var statusText: String?
        var httpVersion: String?
        var cookies: [Field]?
        var headers: [Field]?
        var content: Content?
        var redirectURL: String?
        var headersSize: Int?
        var bodySize: Int?
        /// Not in the format: the `URLError` code of a failed exchange (status 0).
        var _urlErrorCode: Int?
        /// Not in the format (browsers write it for a failed exchange): what failed.
        var _error: String?
    }

    /// A request's `postData` or a response's `content`.
    struct Content: Codable {
        var size: Int?
        var mimeType: String?
        var text: String?
        var encoding: String?
        var comment: String?
    }

    // MARK: Reading

    static func entries(from data: Data, source: String) throws(HTTPArchiveError) -> [HTTPArchive.Entry] {
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: data)
        } catch let error as DecodingError {
            throw HTTPArchiveError(.unreadable, "\(source) is not a HAR file: \(explain(error)).")
        } catch {
            throw HTTPArchiveError(.unreadable, "\(source) is not a HAR file: \(error).")
        }
        var entries: [HTTPArchive.Entry] = []
        for (index, entry) in file.log.entries.enumerated() {
            do throws(HTTPArchiveError) {
                var requestBody: Data?
                if let content = entry.request.postData { requestBody = try body(of: content, empty: nil) }
                var responseBody: Data? = Data()
                if let content = entry.response.content { responseBody = try body(of: content, empty: Data()) }
                entries.append(
                    HTTPArchive.Entry(
                        method: entry.request.method.uppercased(), url: entry.request.url,
                        requestHeaders: fields(entry.request.headers), requestBody: requestBody,
                        status: entry.response.status, responseHeaders: fields(entry.response.headers),
                        responseBody: responseBody,
                        failure: entry.response.status == 0
                            ? URLError.Code(rawValue: entry.response._urlErrorCode ?? URLError.Code.unknown.rawValue)
                            : nil,
                        failureReason: entry.response.status == 0 ? entry.response._error : nil,
                        startedAt: entry.startedDateTime.flatMap(parseDate) ?? Date(timeIntervalSince1970: 0),
                        duration: .microseconds(Int64(min(max(0, entry.time ?? 0), 1e12) * 1000))))
            } catch {
                throw HTTPArchiveError(
                    .unreadable,
                    "\(source) is not a HAR file: entry \(index + 1) (\(entry.request.method) "
                        + "\(URL(string: entry.request.url).map(Redactor.standard.describe) ?? "<a URL that cannot be read>")) "
                        + "has \(error.description)")
            }
        }
        return entries
    }

    /// A content's bytes; `nil` when it has no text though it had bytes (not kept).
    private static func body(of content: Content, empty: Data?) throws(HTTPArchiveError) -> Data? {
        // No text: nothing to send, or a body that was not kept (a size other than 0).
        guard let text = content.text else { return (content.size ?? 0) != 0 ? nil : empty }
        guard content.encoding?.lowercased() == "base64" else { return Data(text.utf8) }
        guard let data = Data(base64Encoded: text, options: .ignoreUnknownCharacters) else {
            throw HTTPArchiveError(.unreadable, "a body marked base64 that is not base64.")
        }
        return data
    }

    private static func fields(_ list: [Field]?) -> [String: String] {
        var result: [String: String] = [:]
        for field in list ?? [] where !field.name.hasPrefix(":") {
            // HTTP/2 pseudo-headers (`:authority`) are not header fields; a repeated field is joined.
            result[field.name] = result[field.name].map { "\($0), \(field.value)" } ?? field.value
        }
        return result
    }

    private static func explain(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let names = context.codingPath.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }
            let text = names.joined()
            return text.isEmpty ? "the document" : String(text.drop(while: { $0 == "." }))
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "\(path(context)) has no \"\(key.stringValue)\""
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "\(path(context)) is not what HAR says it is (\(context.debugDescription))"
        case .dataCorrupted(let context):
            return "\(path(context)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }

    // MARK: Writing

    static func data(of entries: [HTTPArchive.Entry]) -> Data {
        let file = File(
            log: Log(
                version: "1.2", creator: Creator(name: "FetchKitTesting", version: "1"),
                entries: entries.map(harEntry)))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Encoding plain strings, numbers and arrays of them cannot fail.
        return (try? encoder.encode(file)) ?? Data()
    }

    private static func harEntry(_ entry: HTTPArchive.Entry) -> Entry {
        let milliseconds =
            Double(entry.duration.components.seconds) * 1000
            + Double(entry.duration.components.attoseconds) / 1e15
        let query = URLComponents(string: entry.url)?.queryItems ?? []
        let requestType = header("content-type", in: entry.requestHeaders)
        let responseType = header("content-type", in: entry.responseHeaders) ?? ""
        var response = Response(
            status: entry.status,
            statusText: entry.failure == nil ? HTTPURLResponse.localizedString(forStatusCode: entry.status) : "",
            httpVersion: "HTTP/1.1", cookies: [], headers: harFields(entry.responseHeaders),
            content: content(entry.responseBody, mimeType: responseType)
                ?? Content(size: -1, mimeType: responseType, comment: "not recorded"),
            redirectURL: header("location", in: entry.responseHeaders) ?? "", headersSize: -1,
            bodySize: entry.responseBody?.count ?? -1)
        if let failure = entry.failure {
            response._urlErrorCode = failure.rawValue
            response._error = entry.failureReason ?? "URLError \(failure.rawValue)"
        }
        return Entry(
            startedDateTime: formatDate(entry.startedAt), time: milliseconds,
            request: Request(
                method: entry.method, url: entry.url, httpVersion: "HTTP/1.1", cookies: [],
                headers: harFields(entry.requestHeaders),
                queryString: query.map { Field(name: $0.name, value: $0.value ?? "") },
                postData: content(entry.requestBody, mimeType: requestType ?? "application/octet-stream"),
                headersSize: -1, bodySize: entry.requestBody?.count ?? 0),
            response: response, cache: Ignored(), timings: Timings(send: 0, wait: milliseconds, receive: 0))
    }

    private static func content(_ body: Data?, mimeType: String) -> Content? {
        guard let body else { return nil }
        if let text = String(data: body, encoding: .utf8) {
            return Content(size: body.count, mimeType: mimeType, text: text)
        }
        return Content(size: body.count, mimeType: mimeType, text: body.base64EncodedString(), encoding: "base64")
    }

    private static func harFields(_ fields: [String: String]) -> [Field] {
        fields.sorted { $0.key.lowercased() < $1.key.lowercased() }.map { Field(name: $0.key, value: $0.value) }
    }

    static func header(_ name: String, in fields: [String: String]) -> String? {
        fields.first { $0.key.lowercased() == name }?.value
    }

    private static func formatDate(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    private static func parseDate(_ text: String) -> Date? {
        (try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
            ?? (try? Date(text, strategy: Date.ISO8601FormatStyle()))
    }
}
