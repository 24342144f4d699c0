import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A request as the client built it from a URL or an endpoint, before the adapters run: the
/// `URLRequest`, the file its body streams from (if any), and how it uses the cache.
///
/// One name per stage: a ``RequestExecution`` adapts it into an ``AdaptedRequest``, which it
/// sends; the public ``PreparedRequest`` is a built request's `curl` description.
struct BuiltRequest: Sendable {
    /// A file whose bytes are the body, sent by the transport without loading it.
    struct BodyFile: Sendable {
        var url: URL
        /// Whether FetchKit wrote the file (a multipart form) and removes it when the request ends.
        var isTemporary: Bool
        /// The file when the request was built: every attempt checks that it is unchanged.
        var snapshot: FileSnapshot
        /// The file's size when the request was built (sent as `Content-Length`).
        var size: Int64 { snapshot.size }
    }

    var request: URLRequest
    var bodyFile: BodyFile?
    var cachePolicy: CachePolicy = .useProtocol
    /// The host key of `request`'s URL when building it showed it (``URLValidation/hostKey(of:)``);
    /// `nil` when it is to be read from the URL.
    var hostKey: String?

    init(
        _ request: URLRequest, bodyFile: BodyFile? = nil, cachePolicy: CachePolicy = .useProtocol,
        hostKey: String? = nil
    ) {
        self.request = request
        self.bodyFile = bodyFile
        self.cachePolicy = cachePolicy
        self.hostKey = hostKey
    }

    /// The file to upload as it is now, or a ``FetchError/Code-swift.struct/fileUnavailable``
    /// naming it when it is missing, unreadable or not a regular file (whose length would
    /// not be known before it is read).
    static func snapshot(of file: URL) throws(FetchError) -> FileSnapshot {
        guard file.isFileURL else {
            throw FetchError(code: .fileUnavailable, detail: "the upload file \(file) is not a file URL")
        }
        guard let snapshot = FileSnapshot(path: file.path) else {
            throw FetchError(
                code: .fileUnavailable, detail: "the upload file \(file.path) does not exist. Check the path")
        }
        guard snapshot.isRegularFile, FileManager.default.isReadableFile(atPath: file.path) else {
            throw FetchError(
                code: .fileUnavailable,
                detail: "the upload file \(file.path) is not a readable file. Check its type and permissions")
        }
        return snapshot
    }
}

extension BuiltRequest.BodyFile {
    /// A ``FetchError/Code-swift.struct/fileUnavailable`` error when the file to upload is
    /// gone or is no longer the file its request was built with: another file, another size,
    /// or modified since.
    var change: FetchError? {
        guard let now = FileSnapshot(path: url.path) else { return .uploadFileChanged(url, "was deleted or moved") }
        return now.change(since: snapshot).map { .uploadFileChanged(url, $0) }
    }

    /// Removes the file when it is temporary (a multipart form written for its request).
    func removeIfTemporary() {
        if isTemporary { try? FileManager.default.removeItem(at: url) }
    }
}

/// What building a request does with a file or multipart body.
enum BodyHandling {
    /// The client sends it: a file streams from disk, a form with files is written to a temporary file.
    case stream
    /// `Endpoint.urlRequest`: a file becomes `httpBodyStream`, a form is encoded into `httpBody`.
    case inline
    /// A download's request: a file is read into `httpBody` (checked as an upload reads it),
    /// a form is encoded into it; the file the client streams is the response's.
    case memory
    /// `FetchClient.prepare`: a file is named, a form is left for the description to list.
    case describe
}

extension Endpoint {
    /// The request the client sends for this endpoint, its body handled as `handling` says;
    /// its `timeoutInterval` is `sessionTimeout` when given, else the endpoint's timeout.
    /// A multipart form with files is written to a file in `temporaryDirectory` (the system's
    /// temporary folder when `nil`).
    func builtRequest(
        defaultTimeout: Duration, base: URL?, handling: BodyHandling, sessionTimeout: TimeInterval? = nil,
        temporaryDirectory: URL? = nil
    ) throws(FetchError) -> BuiltRequest {
        // Each change to a `URLRequest` copies its storage on Linux: set what can be set at once.
        let location = try located(base: base)
        var request = URLRequest(
            url: location.url, timeoutInterval: sessionTimeout ?? (timeout ?? defaultTimeout).timeInterval)
        if method != .get { request.httpMethod = method.rawValue }
        for (name, value) in headers {
            request.setValue(value, forHTTPHeaderField: name)
        }
        var bodyFile: BuiltRequest.BodyFile?
        if let body {
            var contentType = body.contentType
            switch body.source {
            case .failed(let error):
                throw error
            case .data(let data):
                request.httpBody = data
            case .file(let file):
                let snapshot = try BuiltRequest.snapshot(of: file)
                if handling == .inline {
                    guard let stream = InputStream(url: file) else {
                        throw FetchError(
                            code: .fileUnavailable,
                            detail:
                                "the upload file \(file.path) could not be opened for reading. Check that it still exists"
                        )
                    }
                    request.httpBodyStream = stream
                } else if handling == .memory {
                    request.httpBody = try UploadFileReader(file: file, expected: snapshot).readAll()
                } else {
                    bodyFile = .init(url: file, isTemporary: false, snapshot: snapshot)
                }
                request.setValue(String(snapshot.size), forHTTPHeaderField: "Content-Length")
            case .multipart(let form):
                if handling == .describe {
                    break
                } else if handling == .stream
                    && (form.containsFiles || form.inMemorySize > MultipartFormData.inMemoryLimit)
                {
                    let file = (temporaryDirectory ?? FileManager.default.temporaryDirectory)
                        .appendingPathComponent("FetchKit-upload-\(UUID().uuidString).multipart")
                    do {
                        contentType = try form.write(to: file)
                        let snapshot = try BuiltRequest.snapshot(of: file)
                        bodyFile = .init(url: file, isTemporary: true, snapshot: snapshot)
                        request.setValue(String(snapshot.size), forHTTPHeaderField: "Content-Length")
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
        return BuiltRequest(request, bodyFile: bodyFile, cachePolicy: cachePolicy, hostKey: location.hostKey)
    }
}
