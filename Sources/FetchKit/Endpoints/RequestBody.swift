public import Foundation

/// The body of a request: bytes and their content type.
///
/// ```swift
/// var body: RequestBody? { .json(NewFavourite(movieID: 550)) }
/// var body: RequestBody? { RequestBody(data: csv, contentType: "text/csv") }
/// ```
public struct RequestBody: Sendable {
    /// The bytes to send, or the reason they could not be produced.
    let content: Result<Data, FetchError>
    /// The `Content-Type` header to send with the bytes.
    public let contentType: String

    /// A body of raw bytes.
    ///
    /// - Parameters:
    ///   - data: the bytes to send.
    ///   - contentType: the `Content-Type` to send, such as `"application/octet-stream"`.
    public init(data: Data, contentType: String = "application/octet-stream") {
        self.content = .success(data)
        self.contentType = contentType
    }

    /// A body of JSON, encoded now with `encoder`.
    ///
    /// When the value cannot be encoded, the fetch that sends this body fails with
    /// ``FetchError/Code-swift.struct/invalidRequest``; nothing is thrown here.
    ///
    /// - Parameters:
    ///   - value: the value to encode.
    ///   - encoder: the encoder to use.
    /// - Returns: the body, with `Content-Type: application/json`.
    public static func json(_ value: some Encodable, encoder: JSONEncoder = JSONEncoder()) -> RequestBody {
        do {
            return RequestBody(content: .success(try encoder.encode(value)), contentType: "application/json")
        } catch {
            let failure = FetchError(
                code: .invalidRequest, detail: "the JSON body could not be encoded (\(error)). Check the body's value")
            return RequestBody(content: .failure(failure), contentType: "application/json")
        }
    }

    /// A body of text, sent as UTF-8.
    ///
    /// - Parameters:
    ///   - text: the text.
    ///   - contentType: the `Content-Type` to send.
    /// - Returns: the body.
    public static func text(_ text: String, contentType: String = "text/plain; charset=utf-8") -> RequestBody {
        RequestBody(data: Data(text.utf8), contentType: contentType)
    }

    /// A body of form fields, `application/x-www-form-urlencoded`, with every reserved
    /// character escaped.
    ///
    /// - Parameter fields: the fields, in order.
    /// - Returns: the body.
    public static func form(_ fields: [URLQueryItem]) -> RequestBody {
        RequestBody(
            data: Data(PercentEncoding.encodeQuery(fields).utf8), contentType: "application/x-www-form-urlencoded")
    }

    private init(content: Result<Data, FetchError>, contentType: String) {
        self.content = content
        self.contentType = contentType
    }
}
