public import FetchKit
public import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A collection's file fields: which of the record's properties name files (``SyncedFile``, or
/// `[SyncedFile]` for a field of several files), how a write carries the files it adds, and how
/// a stored file is downloaded.
///
/// The PocketBase preset describes them by their names:
///
/// ```swift
/// var photos = RemoteCollection<Photo>.pocketBase("photos", at: server, version: \.updated, files: ["image"])
/// ```
///
/// A description of its own sets ``RemoteCollection/files`` (booklab's covers):
///
/// ```swift
/// books.files = .pocketBase(["cover"], collection: "books", at: server)
/// ```
///
/// A write whose record holds a file attached on this device (``SyncedCollection/attach(_:)``)
/// is sent alone, never in a batch, with ``upload`` turning its request into one that carries the
/// file; the server's answer names the stored file. Files already on the server travel as their
/// names, like any other field: a field set to ``SyncedFile/none`` removes the file, a field of
/// several files keeps the names it lists.
public struct FileFields: Sendable {
    /// The file fields' names (the coding keys of the record's ``SyncedFile`` and `[SyncedFile]`
    /// properties).
    public var names: [String]
    /// Turns a write's request (a create or an update, as ``RecordWrites`` built it) into the
    /// request that carries `files`, the files the record holds that the server does not have yet.
    public var upload: @Sendable (_ write: any Endpoint, _ files: [FileUpload]) -> any Endpoint
    /// The request that downloads the file `name` of the record whose identity on the server is
    /// `record` (``RemoteCollection/serverID`` when the collection has one, else the key).
    public var download: @Sendable (_ record: String, _ name: String) -> any Endpoint
    /// Whether the server's file `stored` is the upload of the file sent as `sent`: how a
    /// collection recognises its own upload in an answer, and in a record read after a lost
    /// answer. By default the names are equal (a server that keeps the name it was sent);
    /// PocketBase's adds `_` and 10 random characters before the extension.
    public var isUpload: @Sendable (_ stored: String, _ sent: String) -> Bool

    /// File fields described by their names, their uploads and their downloads.
    ///
    /// - Parameters:
    ///   - names: the file fields' names.
    ///   - upload: turns a write's request into one that carries its files.
    ///   - download: the request of one stored file.
    ///   - isUpload: whether a stored name is the upload of a sent one; by default, equal names.
    public init(
        _ names: [String], upload: @escaping @Sendable (_ write: any Endpoint, _ files: [FileUpload]) -> any Endpoint,
        download: @escaping @Sendable (_ record: String, _ name: String) -> any Endpoint,
        isUpload: @escaping @Sendable (_ stored: String, _ sent: String) -> Bool = { $0 == $1 }
    ) {
        self.names = names
        self.upload = upload
        self.download = download
        self.isUpload = isUpload
    }

    /// No file fields (the default).
    public static var none: FileFields {
        FileFields(
            [], upload: { write, _ in write }, download: { _, name in FileRequest(url: URL(fileURLWithPath: name)) })
    }

    /// The file fields of a PocketBase collection: a write that adds files is a
    /// `multipart/form-data` request whose `@jsonPayload` part holds the write's JSON (without the
    /// names of the files it adds) and whose file parts, one per file, are named by their field;
    /// a file is downloaded from `/api/files/{collection}/{record}/{name}`.
    ///
    /// PocketBase stores an uploaded file under its name with `_` and 10 random characters added
    /// before the extension, and answers with that name; a collection recognises its own upload
    /// in the answer, and in a record read after a lost answer, by that rule.
    ///
    /// - Parameters:
    ///   - names: the collection's file fields.
    ///   - collection: the PocketBase collection's name.
    ///   - server: the server's root URL, such as `http://127.0.0.1:8090`.
    /// - Returns: the description.
    public static func pocketBase(_ names: [String], collection: String, at server: URL) -> FileFields {
        FileFields(
            names,
            upload: { write, files in
                ReplacedRequest(write, body: PocketBaseUpload.form(of: write, adding: files), cachePolicy: .bypass)
            },
            download: { record, name in
                FileRequest(baseURL: server, path: "/api/files/\(collection)/\(record)/\(name)")
            },
            isUpload: FileFolder.holds)
    }
}

/// A write's body carrying its files as PocketBase reads them: the write's JSON in
/// `@jsonPayload`, each file a part named by its field.
enum PocketBaseUpload {
    /// The body of `write` with `files` added.
    static func form(of write: any Endpoint, adding files: [FileUpload]) -> RequestBody {
        var form = MultipartFormData()
        let adding = Set(files.map(\.name))
        var fields: [String: Any] = [:]
        if let given = write.body {
            guard let bytes = given.bytes,
                let object = (try? JSONSerialization.jsonObject(with: bytes)) as? [String: Any]
            else {
                // Files cannot go beside a body PocketBase does not read as fields: the send fails, naming it.
                return .json(Unsendable())
            }
            fields = object
        }
        var named = Set<String>()
        for field in Set(files.map(\.field)) {
            switch fields[field] {
            case let names as [Any]:
                // The files it keeps, by their stored names; the new ones come as parts.
                fields[field] = names.filter { !adding.contains($0 as? String ?? "") }
                named.insert(field)
            case let name as String:
                if adding.contains(name) { fields[field] = nil } else { named.insert(field) }
            default:
                break
            }
        }
        if !fields.isEmpty, let payload = try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys]) {
            form.append(String(decoding: payload, as: UTF8.self), name: "@jsonPayload")
        }
        for file in files {
            // A field the JSON names is set to its kept files and these; one it does not name gets
            // these added (`field+`), never replacing the files it holds.
            let part = named.contains(file.field) || fields[file.field] != nil ? file.field : file.field + "+"
            form.append(file: file.file, name: part, filename: file.name, contentType: file.contentType)
        }
        return .multipart(form)
    }

    /// A body that fails to encode, saying why.
    struct Unsendable: Encodable {
        func encode(to encoder: any Encoder) throws {
            throw EncodingError.invalidValue(
                "",
                .init(
                    codingPath: [],
                    debugDescription: "the write's body is not a JSON object, so PocketBase's "
                        + "@jsonPayload cannot carry it beside the files it adds"))
        }
    }
}

/// A request with some of its parts replaced: a write carrying its files, an upload with a
/// timeout of its own, a range of a file.
struct ReplacedRequest: Endpoint {
    let request: any Endpoint
    let headers: [String: String]
    let body: RequestBody?
    let timeout: Duration?
    let cachePolicy: CachePolicy

    /// `request`, with the parts given replaced (`headers` merged into its own).
    init(
        _ request: any Endpoint, headers: [String: String] = [:], body: RequestBody? = nil, timeout: Duration? = nil,
        cachePolicy: CachePolicy? = nil
    ) {
        self.request = request
        self.headers = request.headers.merging(headers) { _, replaced in replaced }
        self.body = body ?? request.body
        self.timeout = timeout ?? request.timeout
        self.cachePolicy = cachePolicy ?? request.cachePolicy
    }

    /// A range of `request`: `Range: bytes=from-(from+count-1)`.
    static func range(of request: any Endpoint, from offset: Int, count: Int) -> ReplacedRequest {
        ReplacedRequest(request, headers: ["Range": "bytes=\(offset)-\(offset + count - 1)"])
    }

    var baseURL: URL { request.baseURL }
    var path: String { request.path }
    var method: HTTPMethod { request.method }
    var queryItems: [URLQueryItem] { request.queryItems }

    /// The first and last byte and the total (`nil` for `*`) of a `Content-Range` (`bytes 0-99/1000`).
    static func contentRange(_ header: String?) -> (Int, Int, Int?)? {
        guard let header = header?.trimmingCharacters(in: .whitespaces), header.lowercased().hasPrefix("bytes ")
        else { return nil }
        let parts = header.dropFirst(6).trimmingCharacters(in: .whitespaces).split(separator: "/")
        guard parts.count == 2 else { return nil }
        let total = parts[1] == "*" ? nil : Int(parts[1])
        guard parts[1] == "*" || total != nil else { return nil }
        let bounds = parts[0].split(separator: "-")
        guard bounds.count == 2, let first = Int(bounds[0]), let last = Int(bounds[1]), last < total ?? Int.max
        else { return nil }
        return (first, last, total)
    }
}

/// The request of one stored file, through the client's HTTP cache.
struct FileRequest: Endpoint {
    var baseURL: URL
    var path: String

    /// A request below `baseURL`, which a client's own base URL replaces.
    init(baseURL: URL, path: String) {
        self.baseURL = baseURL
        self.path = path
    }

    /// A request of `url`.
    init(url: URL) {
        self.init(baseURL: url, path: "")
    }
}
