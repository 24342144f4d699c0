public import Foundation
import Locking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An HTTP cache that FetchKit owns: it honours `ETag`, `Last-Modified` and `Cache-Control`
/// the same way on Linux and on Apple platforms, in memory and optionally on disk.
///
/// Give a client one with ``FetchClient/Configuration-swift.struct/cache``:
///
/// ```swift
/// let cache = try HTTPCache(directory: cachesFolder.appendingPathComponent("tmdb"), maximumBytes: 50 << 20)
/// let client = FetchClient { $0.cache = cache }
/// ```
///
/// What it does with a `GET` (other methods are never cached, and a successful `POST`,
/// `PUT`, `PATCH` or `DELETE` drops the entry of its URL):
///
/// - A `200` response is stored unless it says `no-store` (or the request did) or
///   `Vary: *`, and as long as it can be reused: a `max-age`, an `Expires`, an `ETag` or a
///   `Last-Modified`. A `Cache-Control` header that does not parse makes the response
///   uncacheable; it is never an error. `private` responses are stored: this is a private
///   cache, one per user.
/// - A stored response younger than its `max-age` (or `Expires`) is served without a
///   request, unless it says `no-cache`. Once stale (`must-revalidate` or not), or when
///   it says `no-cache`, the request goes out with `If-None-Match` / `If-Modified-Since`;
///   a `304 Not Modified` answer costs no body, refreshes the stored headers, and the fetch
///   returns the stored body. Its ``FetchMetrics/cacheUse`` is
///   ``FetchMetrics/CacheUse/notModified`` and its ``FetchMetrics/bytesReceived`` 0.
/// - An endpoint opts out with ``Endpoint/cachePolicy`` ``CachePolicy/bypass``, or always
///   revalidates with ``CachePolicy/revalidate``.
///
/// Keys are the method and the URL with secret query values redacted (see ``Redactor``):
/// no API key or token is ever part of a key, a file name or a stored header of the
/// request. That also means the cache does not tell two users' keys apart: give each
/// signed-in user their own cache (or call ``removeAll()`` at sign-out). Responses that
/// vary on a secret request header (`Vary: Authorization`) are not stored.
///
/// The disk store is safe across processes: each entry is one file written to a temporary
/// name and renamed into place, so a reader sees a whole entry or none; a file that does
/// not read back (torn, truncated, another version) counts as a miss and is removed.
/// When the files exceed ``maximumBytes``, the least recently used are removed.
public final class HTTPCache: Sendable {
    /// The most bytes the cache keeps (on disk when it has a ``directory``, in memory otherwise).
    public let maximumBytes: Int
    /// The folder of the disk store, or `nil` for a memory-only cache.
    public let directory: URL?

    private let memory: MemoryStore
    private let disk: DiskStore?

    /// Creates a cache that keeps responses in memory only.
    ///
    /// - Parameter maximumBytes: the most bytes of responses kept; the least recently used
    ///   go first. 10 MiB by default.
    public init(maximumBytes: Int = 10 << 20) {
        self.maximumBytes = max(0, maximumBytes)
        self.directory = nil
        self.memory = MemoryStore(limit: self.maximumBytes)
        self.disk = nil
    }

    /// Creates a cache that keeps responses on disk in `directory`, with a small memory
    /// front for the most recent ones.
    ///
    /// - Parameters:
    ///   - directory: the folder to keep entries in; created if missing. Several processes
    ///     may share it.
    ///   - maximumBytes: the most bytes of files kept; 100 MiB by default.
    ///   - memoryBytes: the most bytes also kept in memory; 2 MiB by default.
    /// - Throws: ``FetchError`` with code ``FetchError/Code-swift.struct/invalidRequest`` when
    ///   the folder cannot be created.
    public init(directory: URL, maximumBytes: Int = 100 << 20, memoryBytes: Int = 2 << 20) throws(FetchError) {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw FetchError(
                code: .invalidRequest,
                detail:
                    "the cache folder \(directory.path) could not be created (\(error)). Check its parent's permissions"
            )
        }
        self.maximumBytes = max(0, maximumBytes)
        self.directory = directory
        self.memory = MemoryStore(limit: min(max(0, memoryBytes), self.maximumBytes))
        self.disk = DiskStore(directory: directory, limit: self.maximumBytes)
    }

    /// Removes every stored response (from memory and disk).
    public func removeAll() {
        memory.removeAll()
        disk?.removeAll()
    }

    /// The number of responses stored (on disk for a disk cache).
    public var count: Int { disk?.count ?? memory.count }

    // MARK: Internals

    func entry(for key: String) -> CachedResponse? {
        if let entry = memory.get(key) { return entry }
        guard let entry = disk?.get(key) else { return nil }
        memory.put(entry)
        return entry
    }

    func store(_ entry: CachedResponse) {
        // An entry larger than an eighth of the cache would push out too much else.
        guard entry.cost <= maximumBytes / 8 else {
            remove(entry.key)
            return
        }
        memory.put(entry)
        disk?.put(entry)
    }

    func remove(_ key: String) {
        memory.remove(key)
        disk?.remove(key)
    }

    /// The key of a request: method and redacted URL (no secret values).
    static func key(method: String, url: URL, redactor: Redactor) -> String {
        "\(method.uppercased()) \(redactor.describe(url))"
    }
}

/// Entries in memory, least recently used out first.
private final class MemoryStore: Sendable {
    private struct State {
        var entries: [String: (entry: CachedResponse, used: UInt64)] = [:]
        var bytes = 0
        var clock: UInt64 = 0
    }

    private let limit: Int
    private let state = Locked(State())

    init(limit: Int) { self.limit = limit }

    var count: Int { state.withLock { $0.entries.count } }

    func get(_ key: String) -> CachedResponse? {
        state.withLock { state in
            guard let found = state.entries[key] else { return nil }
            state.clock += 1
            state.entries[key] = (found.entry, state.clock)
            return found.entry
        }
    }

    func put(_ entry: CachedResponse) {
        guard entry.cost <= limit else {
            remove(entry.key)
            return
        }
        state.withLock { state in
            if let old = state.entries[entry.key] { state.bytes -= old.entry.cost }
            state.clock += 1
            state.entries[entry.key] = (entry, state.clock)
            state.bytes += entry.cost
            if state.bytes > limit {
                for (key, value) in state.entries.sorted(by: { $0.value.used < $1.value.used }) {
                    guard state.bytes > limit else { break }
                    state.entries[key] = nil
                    state.bytes -= value.entry.cost
                }
            }
        }
    }

    func remove(_ key: String) {
        state.withLock { state in
            if let old = state.entries.removeValue(forKey: key) { state.bytes -= old.entry.cost }
        }
    }

    func removeAll() {
        state.withLock { $0 = State() }
    }
}

/// Entries as files: `<hash>.fkcache`, a magic number, a JSON header and the body.
private final class DiskStore: Sendable {
    private static let magic = Data("FKC1".utf8)
    private let directory: URL
    private let limit: Int
    /// Bytes written since the folder was last measured; the folder is measured again (and
    /// trimmed) once they could have pushed it over the limit.
    private let written = Locked<Int?>(nil)

    init(directory: URL, limit: Int) {
        self.directory = directory
        self.limit = limit
    }

    var count: Int { files().count }

    func get(_ key: String) -> CachedResponse? {
        let file = self.file(for: key)
        // Read, not mapped: a mapped file that another program truncates kills this one with
        // SIGBUS when the lost pages are touched.
        guard let data = try? Data(contentsOf: file) else { return nil }
        guard let entry = Self.decode(data), entry.key == key else {
            // Torn, truncated, from another version, or a hash collision: a miss. Remove only
            // what cannot be read at all, so a colliding key does not evict its neighbour.
            if Self.decode(data) == nil { try? FileManager.default.removeItem(at: file) }
            return nil
        }
        // Mark it recently used for eviction.
        try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: file.path)
        return entry
    }

    func put(_ entry: CachedResponse) {
        guard let data = Self.encode(entry) else { return }
        let target = file(for: entry.key)
        let temporary = directory.appendingPathComponent(".tmp-\(UUID().uuidString)")
        do {
            try data.write(to: temporary)
            if rename(temporary.path, target.path) != 0 {
                try? FileManager.default.removeItem(at: temporary)
                return
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            return
        }
        let measure = written.withLock { written -> Bool in
            let total = (written ?? 0) + data.count
            written = total
            return total > limit / 4
        }
        if measure { trim() }
    }

    func remove(_ key: String) {
        try? FileManager.default.removeItem(at: file(for: key))
    }

    func removeAll() {
        for file in files() { try? FileManager.default.removeItem(at: file.url) }
    }

    /// Removes the least recently used files until the folder is within the limit.
    private func trim() {
        written.withLock { $0 = 0 }
        var entries = files()
        var total = entries.reduce(0) { $0 + $1.size }
        guard total > limit else { return }
        entries.sort { $0.used < $1.used }
        for entry in entries {
            guard total > limit * 9 / 10 else { break }
            try? FileManager.default.removeItem(at: entry.url)
            total -= entry.size
        }
    }

    private func files() -> [(url: URL, size: Int, used: Date)] {
        let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey]
        guard
            let urls = try? FileManager.default.contentsOfDirectory(
                at: directory, includingPropertiesForKeys: keys, options: [.skipsHiddenFiles])
        else { return [] }
        return urls.filter { $0.pathExtension == "fkcache" }.map { url in
            let values = try? url.resourceValues(forKeys: Set(keys))
            return (url, values?.fileSize ?? 0, values?.contentModificationDate ?? .distantPast)
        }
    }

    private func file(for key: String) -> URL {
        // FNV-1a, 64 bits: a file name that says nothing about the URL.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let name = String(hash, radix: 16)
        return directory.appendingPathComponent(String(repeating: "0", count: 16 - name.count) + name + ".fkcache")
    }

    private struct Header: Codable {
        var key: String
        var status: Int
        var headers: [String: String]
        var receivedAt: Date
        var varyValues: [String: String]
        var bodyLength: Int
    }

    private static func encode(_ entry: CachedResponse) -> Data? {
        let header = Header(
            key: entry.key, status: entry.status, headers: entry.headers, receivedAt: entry.receivedAt,
            varyValues: entry.varyValues, bodyLength: entry.body.count)
        guard let json = try? JSONEncoder().encode(header) else { return nil }
        var data = magic
        var length = UInt32(json.count).bigEndian
        withUnsafeBytes(of: &length) { data.append(contentsOf: $0) }
        data.append(json)
        data.append(entry.body)
        return data
    }

    private static func decode(_ data: Data) -> CachedResponse? {
        guard data.count >= 8, data.prefix(4) == magic else { return nil }
        let lengthBytes = data.dropFirst(4).prefix(4)
        let length = lengthBytes.reduce(0) { Int($0) << 8 | Int($1) }
        guard data.count >= 8 + length else { return nil }
        let start = data.startIndex + 8
        guard let header = try? JSONDecoder().decode(Header.self, from: data[start..<(start + length)]) else {
            return nil
        }
        let body = data[(start + length)...]
        guard body.count == header.bodyLength else { return nil }
        return CachedResponse(
            key: header.key, status: header.status, headers: header.headers, body: Data(body),
            receivedAt: header.receivedAt, varyValues: header.varyValues)
    }
}
