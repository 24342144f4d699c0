public import Foundation

/// A `multipart/form-data` form: text fields, in-memory data and files, in order.
///
/// ```swift
/// var form = MultipartFormData()
/// form.append("Sunset over Lisbon", name: "title")
/// form.append(file: photoURL, name: "photo", contentType: "image/jpeg")
/// form.append(thumbnail, name: "thumbnail", filename: "thumb.png", contentType: "image/png")
///
/// let receipt = try await client.fetch(Photos.upload(form), extracting: .decode(Receipt.self))
/// ```
///
/// Send it with ``RequestBody/multipart(_:)``. Names and filenames are escaped as browsers
/// do (a `"` becomes `%22`, CR and LF become `%0D` and `%0A`), so no part can inject
/// header lines. The boundary is 128 random bits, and FetchKit checks it against every
/// part's bytes as it writes the form, choosing another boundary if a part happens to
/// contain it. A content type with a line break is refused: the fetch fails with
/// ``FetchError/Code-swift.struct/invalidRequest`` naming the part.
public struct MultipartFormData: Sendable {
    /// One part of the form.
    enum Part: Sendable {
        case field(name: String, value: String)
        case data(name: String, data: Data, filename: String?, contentType: String)
        case file(name: String, url: URL, filename: String, contentType: String)

        var name: String {
            switch self {
            case .field(let name, _), .data(let name, _, _, _), .file(let name, _, _, _): name
            }
        }
    }

    private(set) var parts: [Part] = []
    private let chosenBoundary: String?
    /// The boundary between parts.
    public let boundary: String

    /// Creates an empty form.
    ///
    /// - Parameter boundary: the boundary to use, or `nil` (the default) for a random one,
    ///   which FetchKit replaces if a part's bytes contain it. A given boundary must be 1 to
    ///   70 letters, digits or `'()+_,-./:=?`, and a part that contains it fails the fetch.
    public init(boundary: String? = nil) {
        self.chosenBoundary = boundary
        self.boundary = boundary ?? Self.randomBoundary()
    }

    /// The `Content-Type` of the form: `multipart/form-data; boundary=…`.
    public var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// Whether any part is a file (the form is then streamed through a temporary file).
    var containsFiles: Bool {
        parts.contains { if case .file = $0 { true } else { false } }
    }

    /// Appends a text field.
    ///
    /// - Parameters:
    ///   - value: the field's value, sent as UTF-8.
    ///   - name: the field's name.
    public mutating func append(_ value: String, name: String) {
        parts.append(.field(name: name, value: value))
    }

    /// Appends bytes from memory, as a file upload when `filename` is given.
    ///
    /// - Parameters:
    ///   - data: the bytes.
    ///   - name: the field's name.
    ///   - filename: the filename to send, or `nil` for a plain field.
    ///   - contentType: the part's content type.
    public mutating func append(
        _ data: Data, name: String, filename: String? = nil, contentType: String = "application/octet-stream"
    ) {
        parts.append(.data(name: name, data: data, filename: filename, contentType: contentType))
    }

    /// Appends a file, streamed from disk when the request is sent.
    ///
    /// - Parameters:
    ///   - file: a file URL.
    ///   - name: the field's name.
    ///   - filename: the filename to send; the file's own name by default.
    ///   - contentType: the part's content type; `application/octet-stream` by default.
    public mutating func append(
        file: URL, name: String, filename: String? = nil, contentType: String = "application/octet-stream"
    ) {
        parts.append(
            .file(name: name, url: file, filename: filename ?? file.lastPathComponent, contentType: contentType))
    }

    // MARK: Encoding

    /// The most bytes of in-memory parts encoded into memory; larger forms go through a file.
    static let inMemoryLimit = 1 << 20

    /// The size of the in-memory parts.
    var inMemorySize: Int {
        parts.reduce(0) { total, part in
            switch part {
            case .field(_, let value): total + value.utf8.count
            case .data(_, let data, _, _): total + data.count
            case .file: total
            }
        }
    }

    /// The whole form in memory, with the boundary actually used.
    func encodedData() throws(FetchError) -> (data: Data, contentType: String) {
        var data = Data()
        let boundary = try write { (chunk: Data) throws(FetchError) in
            data.append(chunk)
        } reset: {
            data = Data()
        }
        return (data, "multipart/form-data; boundary=\(boundary)")
    }

    /// Writes the form into `file` in chunks; returns the content type with the boundary used.
    func write(to file: URL) throws(FetchError) -> String {
        let manager = FileManager.default
        guard manager.createFile(atPath: file.path, contents: nil), let handle = try? FileHandle(forWritingTo: file)
        else {
            throw FetchError(
                code: .invalidRequest,
                detail: "the multipart form could not be written to the temporary file \(file.path). "
                    + "Check that the temporary folder is writable and has room")
        }
        defer { try? handle.close() }
        let boundary = try write { (chunk: Data) throws(FetchError) in
            do {
                try handle.write(contentsOf: chunk)
            } catch {
                throw FetchError(
                    code: .invalidRequest,
                    detail: "the multipart form could not be written to \(file.path) (\(error)). "
                        + "Check the free space of the temporary folder")
            }
        } reset: {
            try? handle.truncate(atOffset: 0)
            try? handle.seek(toOffset: 0)
        }
        return "multipart/form-data; boundary=\(boundary)"
    }

    /// Emits the form's bytes; starts over with a new random boundary when a part contains
    /// the current one. Returns the boundary used.
    private func write(
        _ emit: (Data) throws(FetchError) -> Void, reset: () -> Void
    ) throws(FetchError) -> String {
        if let chosenBoundary { try Self.validate(boundary: chosenBoundary) }
        var boundary = self.boundary
        for _ in 0..<8 {
            reset()
            if try write(boundary: boundary, emit) { return boundary }
            guard chosenBoundary == nil else {
                throw FetchError(
                    code: .invalidRequest,
                    detail: "a part of the multipart form contains its boundary \"\(boundary)\". "
                        + "Leave the boundary out so FetchKit picks one that does not occur")
            }
            boundary = Self.randomBoundary()
        }
        throw FetchError(
            code: .invalidRequest, detail: "no multipart boundary could be found that the parts do not contain")
    }

    /// Writes every part with `boundary`; returns `false` if a part contains the delimiter.
    private func write(boundary: String, _ emit: (Data) throws(FetchError) -> Void) throws(FetchError) -> Bool {
        let delimiter = Data("\r\n--\(boundary)".utf8)
        for (index, part) in parts.enumerated() {
            try emit(Data("--\(boundary)\r\n".utf8))
            try emit(Data(try Self.headers(of: part, index: index).utf8))
            switch part {
            case .field(_, let value):
                let bytes = Data(value.utf8)
                if bytes.range(of: delimiter.dropFirst(2)) != nil { return false }
                try emit(bytes)
            case .data(_, let data, _, _):
                if data.range(of: delimiter.dropFirst(2)) != nil { return false }
                try emit(data)
            case .file(_, let url, _, _):
                guard try Self.copy(url, scanningFor: delimiter, emit) else { return false }
            }
            try emit(Data("\r\n".utf8))
        }
        try emit(Data("--\(boundary)--\r\n".utf8))
        return true
    }

    /// Copies a file in 256 KiB chunks with plain reads; returns `false` if it contains
    /// `delimiter`. A file that changes while it is copied (another size, modified, replaced
    /// or deleted) fails the form with ``FetchError/Code-swift.struct/fileUnavailable``.
    private static func copy(
        _ url: URL, scanningFor delimiter: Data, _ emit: (Data) throws(FetchError) -> Void
    ) throws(FetchError) -> Bool {
        let snapshot: FileSnapshot
        do {
            snapshot = try BuiltRequest.snapshot(of: url)
        } catch {
            throw FetchError(
                code: .fileUnavailable,
                detail:
                    "the file \(url.path) of the multipart form cannot be read. Check that it exists and is readable")
        }
        let reader = UploadFileReader(file: url, expected: snapshot)
        try reader.open()
        defer { reader.close() }
        var tail = Data()
        let needle = delimiter.dropFirst(2)
        while true {
            let chunk = try reader.read(upToCount: 256 * 1024)
            if chunk.isEmpty { break }
            if (tail + chunk).range(of: needle) != nil { return false }
            tail = chunk.suffix(needle.count - 1)
            try emit(chunk)
        }
        return true
    }

    /// The part's header lines, ending with the blank line.
    private static func headers(of part: Part, index: Int) throws(FetchError) -> String {
        var text = "Content-Disposition: form-data; name=\"\(escape(part.name))\""
        switch part {
        case .field:
            text += "\r\n"
        case .data(_, _, let filename, let contentType):
            if let filename { text += "; filename=\"\(escape(filename))\"" }
            text += "\r\nContent-Type: \(try checked(contentType, part: part, index: index))\r\n"
        case .file(_, _, let filename, let contentType):
            text += "; filename=\"\(escape(filename))\""
            text += "\r\nContent-Type: \(try checked(contentType, part: part, index: index))\r\n"
        }
        return text + "\r\n"
    }

    /// Escapes a name or filename as the HTML standard's form encoding does.
    static func escape(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "%22"
            case "\r": result += "%0D"
            case "\n": result += "%0A"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func checked(_ contentType: String, part: Part, index: Int) throws(FetchError) -> String {
        if contentType.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            throw FetchError(
                code: .invalidRequest,
                detail: "part \(index + 1) (\"\(escape(part.name))\") of the multipart form has a content type with a "
                    + "line break or control character. Use a plain type such as image/jpeg")
        }
        return contentType
    }

    private static let boundaryCharacters = Set(
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'()+_,-./:=?")

    private static func validate(boundary: String) throws(FetchError) {
        guard (1...70).contains(boundary.count), boundary.allSatisfy(boundaryCharacters.contains) else {
            throw FetchError(
                code: .invalidRequest,
                detail: "the multipart boundary \"\(escape(boundary))\" is not 1 to 70 letters, digits or '()+_,-./:=?")
        }
    }

    private static func randomBoundary() -> String {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() as UInt64
        let low = generator.next() as UInt64
        return "FetchKit-" + String(high, radix: 16) + String(low, radix: 16)
    }
}
