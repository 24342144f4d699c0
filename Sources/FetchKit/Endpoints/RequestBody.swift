public import Decoding
public import Foundation

/// The body of a request: bytes in memory, a file streamed from disk, or a multipart form,
/// and its content type.
///
/// ```swift
/// var body: RequestBody? { .json(NewFavourite(movieID: 550)) }
/// var body: RequestBody? { .json(book, encoder: PathEncoder()) }        // path keys sent back nested
/// var body: RequestBody? { .form(Login(user: "ada", remember: true)) }
/// var body: RequestBody? { .file(movieURL, contentType: "video/mp4") }   // streamed, never loaded whole
/// var body: RequestBody? { .multipart(form) }                              // fields and files
/// ```
///
/// A body that cannot be produced (a value that does not encode, a part with an unsafe
/// content type) does not throw where it is written: the fetch that sends it fails with
/// ``FetchError/Code-swift.struct/invalidRequest``, and a file that is missing or changes
/// while it is sent fails it with ``FetchError/Code-swift.struct/fileUnavailable``, naming
/// the file.
public struct RequestBody: Sendable {
    /// Where the bytes come from.
    enum Source: Sendable {
        case data(Data)
        case file(URL)
        case multipart(MultipartFormData)
        case failed(FetchError)
    }

    let source: Source

    /// The bytes of a body held in memory (raw, JSON, text or form); `nil` for a file, a
    /// multipart form or a body that failed to encode.
    public var bytes: Data? {
        if case .data(let data) = source { return data }
        return nil
    }

    /// The `Content-Type` header to send with the bytes. For a multipart form it names the
    /// form's boundary.
    public let contentType: String

    /// A body of raw bytes.
    ///
    /// - Parameters:
    ///   - data: the bytes to send.
    ///   - contentType: the `Content-Type` to send, such as `"application/octet-stream"`.
    public init(data: Data, contentType: String = "application/octet-stream") {
        self.source = .data(data)
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
        json { try encoder.encode(value) }
    }

    /// A body of JSON in the API's nested shape, encoded now with a `PathEncoder` (Decoding module): a type
    /// whose coding keys name paths (`case title = "volumeInfo.title"`) is sent as the nested
    /// objects it was decoded from, so a model read with ``Extraction/decode(_:at:decoder:)`` can be
    /// sent back as it came.
    ///
    /// ```swift
    /// var body: RequestBody? { .json(book, encoder: PathEncoder()) }   // {"volumeInfo":{"title":…}}
    /// ```
    ///
    /// When the value cannot be encoded (a path that cannot be written back, such as an index
    /// above 0), the fetch that sends this body fails with
    /// ``FetchError/Code-swift.struct/invalidRequest``; nothing is thrown here.
    ///
    /// - Parameters:
    ///   - value: the value to encode.
    ///   - encoder: the path-aware encoder to use.
    /// - Returns: the body, with `Content-Type: application/json`.
    public static func json(_ value: some Encodable, encoder: PathEncoder) -> RequestBody {
        json { try encoder.encode(value) }
    }

    /// A JSON body from `encode`, or a body that fails its fetch with the encoding error.
    private static func json(_ encode: () throws -> Data) -> RequestBody {
        do {
            return RequestBody(source: .data(try encode()), contentType: "application/json")
        } catch {
            let failure = FetchError(
                code: .invalidRequest, detail: "the JSON body could not be encoded (\(error)). Check the body's value")
            return RequestBody(source: .failed(failure), contentType: "application/json")
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

    /// A body of form fields, `application/x-www-form-urlencoded`, encoded from a value's
    /// properties.
    ///
    /// Properties become fields in key order; `nil` optionals are left out; `true` and
    /// `false` are sent as such; nested values use brackets (`address[city]=Paris`,
    /// `tags[]=a&tags[]=b`), the convention Rails, PHP and most form parsers read.
    ///
    /// ```swift
    /// struct Login: Encodable { var user: String; var password: String }
    /// var body: RequestBody? { .form(Login(user: "ada", password: secret)) }
    /// ```
    ///
    /// - Parameters:
    ///   - value: the value to encode; it must encode as a keyed container (a struct or a dictionary).
    ///   - encoder: the JSON encoder whose strategies (dates, keys) apply; its output is flattened into fields.
    /// - Returns: the body; when the value cannot be encoded, the fetch that sends it fails
    ///   with ``FetchError/Code-swift.struct/invalidRequest``.
    public static func form(_ value: some Encodable, encoder: JSONEncoder = JSONEncoder()) -> RequestBody {
        let contentType = "application/x-www-form-urlencoded"
        do throws(FetchError) {
            return RequestBody(
                source: .data(try FormEncoding.encode(value, encoder: encoder)), contentType: contentType)
        } catch {
            return RequestBody(source: .failed(error), contentType: contentType)
        }
    }

    /// A body streamed from a file, never loaded into memory whole.
    ///
    /// The file is read when the request is sent (and again for each retry); its size at
    /// that moment is sent as `Content-Length`. A file that is missing then, or that
    /// disappears or changes size while it is sent, fails the fetch with
    /// ``FetchError/Code-swift.struct/fileUnavailable`` naming it.
    ///
    /// - Parameters:
    ///   - file: a file URL.
    ///   - contentType: the `Content-Type` to send.
    /// - Returns: the body.
    public static func file(_ file: URL, contentType: String = "application/octet-stream") -> RequestBody {
        RequestBody(source: .file(file), contentType: contentType)
    }

    /// A `multipart/form-data` body: fields, in-memory data and files, each with its name,
    /// filename and content type.
    ///
    /// Files are streamed: a form with a file part is written to a temporary file in
    /// chunks when the request is sent, and uploaded from there, so a 200 MB video costs
    /// no more memory than a small one.
    ///
    /// - Parameter form: the form.
    /// - Returns: the body, with `Content-Type: multipart/form-data; boundary=…`.
    public static func multipart(_ form: MultipartFormData) -> RequestBody {
        RequestBody(source: .multipart(form), contentType: form.contentType)
    }

    var isMultipart: Bool {
        if case .multipart = source { return true }
        return false
    }

    private init(source: Source, contentType: String) {
        self.source = source
        self.contentType = contentType
    }
}
