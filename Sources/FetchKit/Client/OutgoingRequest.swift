import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A request as the client sends it: the `URLRequest`, the file its body streams from (if
/// any), and how it uses the cache.
struct OutgoingRequest: Sendable {
    /// A file whose bytes are the body, sent by the transport without loading it.
    struct BodyFile: Sendable {
        var url: URL
        /// Whether FetchKit wrote the file (a multipart form) and removes it when the request ends.
        var isTemporary: Bool
        /// The file's size when the request was built (sent as `Content-Length`).
        var size: Int64
    }

    var request: URLRequest
    var bodyFile: BodyFile?
    var cachePolicy: CachePolicy = .useProtocol

    init(_ request: URLRequest, bodyFile: BodyFile? = nil, cachePolicy: CachePolicy = .useProtocol) {
        self.request = request
        self.bodyFile = bodyFile
        self.cachePolicy = cachePolicy
    }

    /// The size of a file to upload, or a ``FetchError/Code-swift.struct/fileUnavailable`` naming it.
    static func size(of file: URL) throws(FetchError) -> Int64 {
        guard file.isFileURL else {
            throw FetchError(code: .fileUnavailable, detail: "the upload file \(file) is not a file URL")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory) else {
            throw FetchError(
                code: .fileUnavailable, detail: "the upload file \(file.path) does not exist. Check the path")
        }
        guard !isDirectory.boolValue, FileManager.default.isReadableFile(atPath: file.path),
            let attributes = try? FileManager.default.attributesOfItem(atPath: file.path),
            let size = (attributes[.size] as? NSNumber)?.int64Value
        else {
            throw FetchError(
                code: .fileUnavailable,
                detail: "the upload file \(file.path) is not a readable file. Check its permissions")
        }
        return size
    }
}

/// What building a request does with a file or multipart body.
enum BodyHandling {
    /// The client sends it: a file streams from disk, a form with files is written to a temporary file.
    case stream
    /// `Endpoint.urlRequest`: a file becomes `httpBodyStream`, a form is encoded into `httpBody`.
    case inline
    /// `FetchClient.prepare`: a file is named, a form is left for the description to list.
    case describe
}

extension Endpoint {
    /// The request the client sends for this endpoint, its body handled as `handling` says;
    /// its `timeoutInterval` is `sessionTimeout` when given, else the endpoint's timeout.
    func outgoing(
        defaultTimeout: Duration, base: URL?, handling: BodyHandling, sessionTimeout: TimeInterval? = nil
    ) throws(FetchError) -> OutgoingRequest {
        // Each change to a `URLRequest` copies its storage on Linux: set what can be set at once.
        var request = URLRequest(
            url: try url(base: base), timeoutInterval: sessionTimeout ?? (timeout ?? defaultTimeout).timeInterval)
        if method != .get { request.httpMethod = method.rawValue }
        for (name, value) in headers {
            request.setValue(value, forHTTPHeaderField: name)
        }
        var bodyFile: OutgoingRequest.BodyFile?
        if let body {
            var contentType = body.contentType
            switch body.source {
            case .failed(let error):
                throw error
            case .data(let data):
                request.httpBody = data
            case .file(let file):
                let size = try OutgoingRequest.size(of: file)
                if handling == .inline {
                    request.httpBodyStream = InputStream(url: file)
                } else {
                    bodyFile = .init(url: file, isTemporary: false, size: size)
                }
                request.setValue(String(size), forHTTPHeaderField: "Content-Length")
            case .multipart(let form):
                if handling == .describe {
                    break
                } else if handling == .stream
                    && (form.containsFiles || form.inMemorySize > MultipartFormData.inMemoryLimit)
                {
                    let file = FileManager.default.temporaryDirectory
                        .appendingPathComponent("FetchKit-upload-\(UUID().uuidString).multipart")
                    do {
                        contentType = try form.write(to: file)
                        let size = try OutgoingRequest.size(of: file)
                        bodyFile = .init(url: file, isTemporary: true, size: size)
                        request.setValue(String(size), forHTTPHeaderField: "Content-Length")
                    } catch {
                        try? FileManager.default.removeItem(at: file)
                        throw error
                    }
                } else {
                    let encoded = try form.encodedData()
                    request.httpBody = encoded.data
                    contentType = encoded.contentType
                }
            }
            // A form's type names its boundary, so it always wins.
            if request.value(forHTTPHeaderField: "Content-Type") == nil || body.isMultipart {
                request.setValue(contentType, forHTTPHeaderField: "Content-Type")
            }
        }
        return OutgoingRequest(request, bodyFile: bodyFile, cachePolicy: cachePolicy)
    }
}
