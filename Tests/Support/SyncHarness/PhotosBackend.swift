public import FetchKitTesting
public import Foundation
import Locking

/// A PocketBase-shaped `photos` collection on the loopback stub server, for the file tests: the
/// records API (`/api/collections/photos/records`, paged by `updated` and `id` through PocketBase's
/// filter syntax as the preset sends it), file fields (`image`, one file; `pages`, several) written
/// by JSON or by a multipart form with `@jsonPayload` as PocketBase reads it, and the files API
/// (`/api/files/photos/{id}/{name}`).
///
/// As PocketBase does, it stores an uploaded file under its name with `_` and 10 random characters
/// added before the extension, deletes the files a record no longer lists, honours no idempotency
/// key, refuses a file over ``maximumFileSize`` (`validation_file_size_limit`) or of a refused
/// extension (`validation_invalid_mime_type`) with `400` and the whole write, and refuses a
/// create of an id it has (`validation_not_unique`).
public final class PhotosBackend: Sendable {
    /// A fault injected into the next write.
    public enum Fault: Sendable {
        /// Applies the write, calls `then` (which may kill the client), and closes the connection
        /// without answering.
        case dropAfterApply(then: (@Sendable () -> Void)?)
        /// Calls `then` as the request arrives, and closes the connection without applying it.
        case dropBeforeApply(then: (@Sendable () -> Void)?)
    }

    /// A stored record.
    public struct Record: Sendable, Hashable {
        /// The id.
        public var id: String
        /// The title.
        public var title: String
        /// The `image` field's file name, `""` for none.
        public var image: String
        /// The `pages` field's file names.
        public var pages: [String]
        /// The server's stamp.
        public var updated: String
    }

    struct State {
        var records: [String: Record] = [:]
        /// Stored files by record, by name (a file longer than the recorded body: its size only).
        var files: [String: [String: Data]] = [:]
        var sizes: [String: Int] = [:]
        /// Files served from disk, by stored name (a large file the test keeps).
        var served: [String: URL] = [:]
        var clock: Int64 = 1_795_000_000_000
        var faults: [Fault] = []
        var uploads: [String: Int] = [:]
        var sent: [String: Int] = [:]
        var ranges = 0
        var creates: [String: Int] = [:]
        var writes = 0
        var maximumFileSize = 5 << 20
        var refusedExtensions: Set<String> = ["exe"]
        var keepsNames = false
    }

    /// The server.
    public let server = StubServer()
    let state = Locked(State())
    static let records = "/api/collections/photos/records"

    /// A backend; call ``start()``.
    public init() {}

    /// Starts serving on a free loopback port.
    public func start() throws {
        server.route("GET", Self.records) { [self] request in list(request) }
        server.route("GET", Self.records + "/*") { [self] request in read(request) }
        server.route("POST", Self.records) { [self] request in write(request) }
        server.route("PATCH", Self.records + "/*") { [self] request in write(request) }
        server.route("DELETE", Self.records + "/*") { [self] request in write(request) }
        server.route("GET", "/api/files/photos/*") { [self] request in file(request) }
        try server.start()
    }

    /// The server's URL.
    public var baseURL: URL { server.baseURL }

    // MARK: Control

    /// Queues faults for the next writes, in order.
    public func failWrites(_ faults: Fault...) { state.withLock { $0.faults += faults } }
    /// Stores each upload under the name it was sent, as a server other than PocketBase may.
    public func keepNames() { state.withLock { $0.keepsNames = true } }
    /// The largest file a field takes (5 MiB by default, PocketBase's default).
    public func limitFiles(to bytes: Int) { state.withLock { $0.maximumFileSize = bytes } }

    /// The records, by id.
    public var records: [String: Record] { state.withLock { $0.records } }
    /// The stored files of a record, by name (empty data for a file longer than the recorded body).
    public func files(of id: String) -> [String: Data] { state.withLock { $0.files[id] ?? [:] } }
    /// The size of a stored file.
    public func size(of name: String) -> Int? { state.withLock { $0.sizes[name] } }
    /// How many times a file was uploaded, by the filename it was sent under.
    public var uploads: [String: Int] { state.withLock { $0.uploads } }
    /// How many times a file arrived in a write, applied or not, by the filename it was sent under.
    public var filesSent: [String: Int] { state.withLock { $0.sent } }
    /// How many times each record was created.
    public var creates: [String: Int] { state.withLock { $0.creates } }
    /// How many ranges of files were answered.
    public var rangesServed: Int { state.withLock { $0.ranges } }
    /// How many write requests arrived.
    public var writeRequests: Int { state.withLock { $0.writes } }

    /// Writes a record as another client would, with an image file of these bytes (none for
    /// `nil`), stored under PocketBase's name for it, or under `storedAs` (a name a server that
    /// lies might send).
    public func put(
        _ id: String, title: String, image: (name: String, bytes: Data)? = nil, storedAs: String? = nil
    ) {
        state.withLock { state in
            var record = state.records[id] ?? Record(id: id, title: title, image: "", pages: [], updated: "")
            record.title = title
            if let image {
                let stored = storedAs ?? Self.storedName(image.name)
                state.files[id, default: [:]][stored] = image.bytes
                state.sizes[stored] = image.bytes.count
                record.image = stored
            }
            Self.store(record, in: &state)
        }
    }

    /// Serves the stored file `name` from `file` (a file too large for the recorded body, whose
    /// bytes the test keeps).
    public func serve(_ name: String, from file: URL) { state.withLock { $0.served[name] = file } }

    /// Deletes a record and its files, as another client would.
    public func remove(_ id: String) {
        state.withLock { state in
            state.records[id] = nil
            state.files[id] = nil
        }
    }

    // MARK: Requests

    private func list(_ request: RecordedRequest) -> StubResponse {
        let filter = request.queryValue("filter") ?? ""
        let perPage = Int(request.queryValue("perPage") ?? "") ?? 30
        return state.withLock { state in
            var items = Array(state.records.values)
            let lookup = Self.quoted(after: "id = ", in: filter)
            if filter.contains("updated > ") {
                let time = Self.quoted(after: "updated > ", in: filter).first ?? ""
                let id = Self.quoted(after: "id > ", in: filter).first ?? ""
                items = items.filter { $0.updated > time || ($0.updated == time && $0.id > id) }
            } else if !lookup.isEmpty {
                items = items.filter { lookup.contains($0.id) }
            } else if let after = Self.quoted(after: "id > ", in: filter).first {
                items = items.filter { $0.id > after }
            }
            let byID = request.queryValue("sort") == "id"
            items.sort { byID ? $0.id < $1.id : ($0.updated, $0.id) < ($1.updated, $1.id) }
            let page = items.prefix(perPage).map(Self.json).joined(separator: ",")
            let total = request.queryValue("skipTotal") == "0" ? items.count : -1
            return .json(#"{"page":1,"perPage":\#(perPage),"totalItems":\#(total),"items":[\#(page)]}"#)
        }
    }

    private func read(_ request: RecordedRequest) -> StubResponse {
        let id = String(request.path.dropFirst(Self.records.count + 1))
        return state.withLock { state in state.records[id].map { .json(Self.json($0)) } ?? Self.notFound }
    }

    private func file(_ request: RecordedRequest) -> StubResponse {
        let parts = request.path.split(separator: "/").map(String.init)
        guard parts.count == 5 else { return Self.notFound }
        let (stored, served) = state.withLock { state in (state.files[parts[3]]?[parts[4]], state.served[parts[4]]) }
        guard let stored else { return Self.notFound }
        // A file served from disk, or from memory; a `Range` of one span is answered `206`.
        let size =
            served.flatMap { try? FileManager.default.attributesOfItem(atPath: $0.path)[.size] as? Int } ?? stored.count
        if size == 0, request.header("Range") != nil {
            // As Go's http.ServeContent (PocketBase's) answers a range of an empty file.
            return StubResponse.status(416, headers: ["Content-Range": "bytes */0"])
        }
        guard let range = request.header("Range"), range.hasPrefix("bytes="),
            let bounds = Optional(range.dropFirst(6).split(separator: "-", omittingEmptySubsequences: false)),
            bounds.count == 2, let first = Int(bounds[0]), first < size
        else {
            if let served { return .file(served, contentType: "application/octet-stream") }
            return .data(stored, contentType: "application/octet-stream")
        }
        let last = min(Int(bounds[1]) ?? size - 1, size - 1)
        var bytes = Data()
        if let served, let handle = try? FileHandle(forReadingFrom: served) {
            defer { try? handle.close() }
            try? handle.seek(toOffset: UInt64(first))
            bytes = (try? handle.read(upToCount: last - first + 1)) ?? Data()
        } else {
            bytes = stored.subdata(in: first..<last + 1)
        }
        state.withLock { $0.ranges += 1 }
        return StubResponse.data(bytes, status: 206, contentType: "application/octet-stream")
            .header("Content-Range", "bytes \(first)-\(last)/\(size)")
    }

    private func write(_ request: RecordedRequest) -> StubResponse {
        let fault: Fault? = state.withLock { state in
            state.writes += 1
            return state.faults.isEmpty ? nil : state.faults.removeFirst()
        }
        switch fault {
        case .dropBeforeApply(let then):
            then?()
            return .closeWithoutAnswer
        case .dropAfterApply(let then):
            _ = apply(request)
            then?()
            return .closeWithoutAnswer
        case nil:
            return apply(request)
        }
    }

    private func apply(_ request: RecordedRequest) -> StubResponse {
        let form: Form
        do {
            form = try Form(request)
        } catch {
            return .json(#"{"status":400,"message":"Failed to load the submitted data.","data":{}}"#, status: 400)
        }
        return state.withLock { state in
            for upload in form.files { state.sent[upload.filename, default: 0] += 1 }
            for upload in form.files {
                let ext = upload.filename.split(separator: ".").last.map(String.init) ?? ""
                if upload.size > state.maximumFileSize {
                    return Self.refusal(
                        upload.field, "validation_file_size_limit",
                        "The maximum allowed file size is \(state.maximumFileSize) bytes.")
                }
                if state.refusedExtensions.contains(ext) {
                    return Self.refusal(upload.field, "validation_invalid_mime_type", "The file type is not allowed.")
                }
            }
            let id =
                request.method == "POST"
                ? form.fields["id"] as? String ?? "" : String(request.path.dropFirst(Self.records.count + 1))
            var record: Record
            switch request.method {
            case "POST":
                guard state.records[id] == nil else {
                    return .json(
                        #"{"status":400,"message":"Failed to create record.","data":{"id":{"code":"validation_not_unique","message":"Value must be unique."}}}"#,
                        status: 400)
                }
                record = Record(id: id, title: "", image: "", pages: [], updated: "")
                state.creates[id, default: 0] += 1
            case "PATCH":
                guard let existing = state.records[id] else { return Self.notFound }
                record = existing
            default:
                guard state.records[id] != nil else { return Self.notFound }
                state.records[id] = nil
                state.files[id] = nil
                return .status(204)
            }
            if let title = form.fields["title"] as? String { record.title = title }
            let held = Set(state.files[id, default: [:]].keys)
            var image = form.fields["image"].map { ($0 as? String).map { [$0] } ?? [] }
            var pages = form.fields["pages"].map { ($0 as? [Any] ?? []).compactMap { $0 as? String } }
            for upload in form.files {
                let stored = state.keepsNames ? upload.filename : Self.storedName(upload.filename)
                state.files[id, default: [:]][stored] = upload.data
                state.sizes[stored] = upload.size
                state.uploads[upload.filename, default: 0] += 1
                // `field+` adds to the files the record holds; `field` to the names the JSON kept.
                switch upload.field {
                case "image": image = (image ?? []) + [stored]
                case "image+": image = (image ?? [record.image]) + [stored]
                case "pages": pages = (pages ?? []) + [stored]
                case "pages+": pages = (pages ?? record.pages) + [stored]
                default: break
                }
            }
            if let image {
                record.image =
                    image.last(where: { !$0.isEmpty && (held.contains($0) || state.files[id]?[$0] != nil) }) ?? ""
            }
            if let pages { record.pages = pages.filter { state.files[id]?[$0] != nil } }
            // Files the record no longer lists are deleted.
            let listed = Set([record.image] + record.pages)
            state.files[id] = state.files[id]?.filter { listed.contains($0.key) }
            Self.store(record, in: &state)
            return .json(Self.json(record))
        }
    }

    private static func store(_ record: Record, in state: inout State) {
        state.clock += 1
        var record = record
        record.updated = NotesBackend.stamp(state.clock)
        state.records[record.id] = record
    }

    /// PocketBase's stored name: the name with `_` and 10 random characters before its extension.
    static func storedName(_ name: String) -> String {
        let dot = name.firstIndex(of: ".")
        let stem = dot.map { String(name[..<$0]) } ?? name
        let ext = dot.map { String(name[$0...]) } ?? ""
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        return stem + "_" + String((0..<10).map { _ in alphabet.randomElement() ?? "a" }) + ext
    }

    private static func refusal(_ field: String, _ code: String, _ message: String) -> StubResponse {
        .json(
            #"{"status":400,"message":"Failed to update record.","data":{"\#(field)":{"code":"\#(code)","message":"\#(message)"}}}"#,
            status: 400)
    }

    private static let notFound = StubResponse.json(
        #"{"status":404,"message":"The requested resource wasn't found.","data":{}}"#, status: 404)

    /// The quoted values that follow `prefix` in a filter.
    static func quoted(after prefix: String, in filter: String) -> [String] {
        var values: [String] = []
        var rest = Substring(filter)
        while let range = rest.range(of: prefix + "'") {
            rest = rest[range.upperBound...]
            guard let end = rest.firstIndex(of: "'") else { break }
            values.append(String(rest[..<end]))
            rest = rest[rest.index(after: end)...]
        }
        return values
    }

    private static func json(_ record: Record) -> String {
        let object: [String: Any] = [
            "collectionId": "pbc_photos", "collectionName": "photos", "id": record.id, "title": record.title,
            "image": record.image, "pages": record.pages, "created": record.updated, "updated": record.updated,
        ]
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
