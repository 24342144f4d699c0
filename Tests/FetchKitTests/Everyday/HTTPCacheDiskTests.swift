import FetchKitTesting
import Foundation
import Locking
import TestSupport
import Testing

@testable import FetchKit

/// The disk store on real files: damage reads as a miss and is removed, a file that changes
/// size under a reader never crashes it, two processes share one folder, and no secret
/// reaches the disk.
@Suite struct HTTPCacheDiskTests {
    /// One response on a stub server, and a fresh cache folder for it.
    struct Fixture {
        let folder: TemporaryDirectory
        let server = StubServer()
        let path = "/entry"
        let body: String
        var bodyData: Data { Data(body.utf8) }

        init(bodySize: Int = 4096) throws {
            folder = try TemporaryDirectory(prefix: "HTTPCacheDiskTests")
            body = String(String(repeating: "0123456789abcdef", count: bodySize / 16 + 1).prefix(bodySize))
            try server.start()
            server.route("GET", path, respond: .text(body).header("Cache-Control", "max-age=86400"))
        }

        func stop() {
            server.stop()
            folder.remove()
        }

        /// A new cache over the folder with no memory front: every read is a read of the file.
        func cache() throws -> HTTPCache {
            try HTTPCache(directory: folder.url, memoryBytes: 0)
        }

        /// The key of the fixture's response.
        var key: String { HTTPCache.key(method: "GET", url: server.url(path), redactor: .standard) }

        /// Fetches the response through `cache`; returns the text and what the cache did.
        func fetch(through cache: HTTPCache) async throws -> (text: String, use: FetchMetrics.CacheUse?) {
            let observer = RecordingObserver()
            let client = FetchClient {
                $0.cache = cache
                $0.observers = [observer]
            }
            let text = try await client.fetch(TestEndpoint(baseURL: server.baseURL, path: path), extracting: .string)
            return (text, observer.finished.current.last?.1.cacheUse)
        }

        /// Fetches the response through `cache` and expects its body, answered as `use` says.
        func expectFetch(
            through cache: HTTPCache, _ use: FetchMetrics.CacheUse, sourceLocation: SourceLocation = #_sourceLocation
        ) async throws {
            let (text, actual) = try await fetch(through: cache)
            let exact = text == body  // compared outside #expect, which would print both bodies
            #expect(
                exact, "wrong bytes: \(text.utf8.count) bytes, not the \(body.utf8.count) sent",
                sourceLocation: sourceLocation)
            #expect(actual == use, sourceLocation: sourceLocation)
        }

        /// The entry files in the folder.
        func entryFiles() throws -> [URL] {
            try FileManager.default.contentsOfDirectory(at: folder.url, includingPropertiesForKeys: nil)
                .filter { $0.pathExtension == "fkcache" }
        }

        /// Stores the response through a client and returns its one entry file.
        func storeTheEntry() async throws -> URL {
            let cache = try cache()
            try await expectFetch(through: cache, FetchMetrics.CacheUse.none)
            let files = try entryFiles()
            try #require(files.count == 1)
            #expect(try self.cache().entry(for: key)?.body == bodyData, "the entry reads back whole before any damage")
            return files[0]
        }

        /// Everything in the folder that is not an entry file (temporary files left behind).
        func strayFiles() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { !$0.hasSuffix(".fkcache") }
        }
    }

    /// Ways a stored entry's bytes can be damaged.
    enum Damage: String, CaseIterable, Sendable {
        case bitFlippedInTheBody, byteZeroedInTheBody, bitFlippedInTheHead, truncated, truncatedToNothing, longer

        func apply(to bytes: inout Data, body: Data, host: String) throws {
            switch self {
            case .bitFlippedInTheBody:
                let range = try #require(bytes.range(of: body))
                bytes[range.lowerBound + body.count / 2] ^= 0x04
            case .byteZeroedInTheBody:
                let range = try #require(bytes.range(of: body))
                bytes[range.lowerBound + body.count / 3] = 0
            case .bitFlippedInTheHead:
                // A bit of the stored key's host: the entry still parses, as the wrong thing.
                let range = try #require(bytes.range(of: Data(host.utf8)))
                bytes[range.lowerBound + 2] ^= 0x01
            case .truncated:
                bytes = bytes.prefix(bytes.count - 100)
            case .truncatedToNothing:
                bytes = Data()
            case .longer:
                bytes.append(Data("trailing bytes".utf8))
            }
        }
    }

    @Test(arguments: Damage.allCases)
    func aDamagedEntryIsAMissAndIsRemoved(_ damage: Damage) async throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        let file = try await fixture.storeTheEntry()
        var bytes = try Data(contentsOf: file)
        try damage.apply(to: &bytes, body: fixture.bodyData, host: fixture.server.url("/").host ?? "127.0.0.1")
        try bytes.write(to: file)

        let cache = try fixture.cache()
        #expect(cache.entry(for: fixture.key) == nil, "damaged bytes are never served")
        #expect(!FileManager.default.fileExists(atPath: file.path), "the damaged entry is removed")
        // Through a client: the server answers, and its fresh copy is stored and served.
        try await fixture.expectFetch(through: cache, FetchMetrics.CacheUse.none)
        try await fixture.expectFetch(through: cache, .hit)
        #expect(fixture.server.requests(to: fixture.path).count == 2)
    }

    @Test func anEntryOfTheEarlierFormatIsAMissAndIsRemoved() async throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        let file = try await fixture.storeTheEntry()
        // The format before checksums: "FKC1", a big-endian head length, a JSON head, the body.
        let head: [String: Any] = [
            "key": fixture.key, "status": 200, "headers": ["Cache-Control": "max-age=86400"],
            "receivedAt": Date().timeIntervalSinceReferenceDate, "varyValues": [String: String](),
            "bodyLength": fixture.bodyData.count,
        ]
        let json = try JSONSerialization.data(withJSONObject: head)
        var bytes = Data("FKC1".utf8)
        withUnsafeBytes(of: UInt32(json.count).bigEndian) { bytes.append(contentsOf: $0) }
        bytes.append(json)
        bytes.append(fixture.bodyData)
        try bytes.write(to: file)

        #expect(try fixture.cache().entry(for: fixture.key) == nil)
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test func anEmptyDirectoryWhereTheEntryShouldBeIsAMissAndIsRemoved() async throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        let file = try await fixture.storeTheEntry()
        try FileManager.default.removeItem(at: file)
        try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false)

        let cache = try fixture.cache()
        #expect(cache.entry(for: fixture.key) == nil)
        #expect(!FileManager.default.fileExists(atPath: file.path), "the empty directory is removed")
        try await fixture.expectFetch(through: cache, FetchMetrics.CacheUse.none)
        try await fixture.expectFetch(through: cache, .hit)
    }

    @Test func aDirectoryWithFilesWhereTheEntryShouldBeIsAMissAndIsLeftAlone() async throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        let file = try await fixture.storeTheEntry()
        try FileManager.default.removeItem(at: file)
        try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false)
        let inside = file.appendingPathComponent("someone-elses.txt")
        try Data("keep me".utf8).write(to: inside)

        let cache = try fixture.cache()
        #expect(cache.entry(for: fixture.key) == nil)
        // Each fetch asks the server; storing its answer fails, and leaves no temporary file.
        try await fixture.expectFetch(through: cache, FetchMetrics.CacheUse.none)
        try await fixture.expectFetch(through: cache, FetchMetrics.CacheUse.none)
        #expect(try Data(contentsOf: inside) == Data("keep me".utf8), "a folder the cache did not write is not deleted")
        #expect(try fixture.strayFiles().isEmpty)
        #expect(cache.count == 0)
    }

    @Test func anUnreadableEntryIsAMissAndIsRemoved() async throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        let file = try await fixture.storeTheEntry()
        var socket: Int32 = -1
        defer { if socket >= 0 { close(socket) } }
        if geteuid() != 0 {
            #expect(chmod(file.path, 0) == 0)
        } else {
            // chmod 000 does not stop root from reading, and the tests may run as root. A
            // Unix-domain socket in the entry's place cannot be opened by anyone (ENXIO).
            try FileManager.default.removeItem(at: file)
            socket = try Self.bindUnixSocket(at: file.path)
        }
        #expect(open(file.path, O_RDONLY | O_NONBLOCK) == -1, "the file cannot be opened for reading")

        let cache = try fixture.cache()
        #expect(cache.entry(for: fixture.key) == nil)
        #expect(!FileManager.default.fileExists(atPath: file.path), "the unreadable entry is removed")
        try await fixture.expectFetch(through: cache, FetchMetrics.CacheUse.none)
        try await fixture.expectFetch(through: cache, .hit)
    }

    /// A Unix-domain socket bound at `path`; the caller closes the returned descriptor.
    static func bindUnixSocket(at path: String) throws -> Int32 {
        #if canImport(Glibc)
            let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_UNIX, SOCK_STREAM, 0)
        #endif
        try #require(descriptor >= 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        try #require(bytes.count < MemoryLayout.size(ofValue: address.sun_path), "the path is too long for a socket")
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        try #require(bound == 0, "bind failed: errno \(errno)")
        return descriptor
    }

    /// The entry used to be memory-mapped: a file cut short while a reader copied from the
    /// mapping killed the process with SIGBUS. Another thread truncates the file in place and
    /// writes it back, over and over, while this one reads it through a client.
    @Test func anEntryTruncatedWhileItIsReadIsNeverACrashOrWrongBytes() async throws {
        let fixture = try Fixture(bodySize: 1 << 20)
        defer { fixture.stop() }
        let file = try await fixture.storeTheEntry()
        let original = try Data(contentsOf: file)
        let stop = Locked(false)
        let truncations = Locked(0)
        let path = file.path
        // A thread started here, not from a child task: on a loaded machine the cooperative pool
        // may not start a child task before the reads are done.
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            defer { finished.signal() }
            while !stop.current {
                let descriptor = open(path, O_WRONLY | O_CLOEXEC)
                guard descriptor >= 0 else {
                    usleep(200)  // removed as damaged, until a reader stores it again
                    continue
                }
                _ = ftruncate(descriptor, off_t(original.count / 3))
                truncations.withLock { $0 += 1 }
                usleep(50)  // short for a moment, so that some reads start on the short file too
                _ = original.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
                close(descriptor)
            }
        }
        let cache = try fixture.cache()
        var reads = 0
        var hits = 0
        // Bounded by count: at least 40 reads, and on until the file was truncated 40 times.
        while reads < 40 || (truncations.current < 40 && reads < 2000) {
            let (text, use) = try await fixture.fetch(through: cache)
            let exact = text == fixture.body  // compared outside #expect, which would print both bodies
            #expect(
                exact, "read \(reads) returned wrong bytes (\(text.utf8.count) bytes, \(use.map { "\($0)" } ?? "-"))")
            if use == .hit { hits += 1 }
            reads += 1
        }
        stop.withLock { $0 = true }
        await Blocking.run { finished.wait() }
        #expect(truncations.current >= 40)
        #expect(try fixture.strayFiles().isEmpty)
        print("\(reads) reads while the file was truncated \(truncations.current) times: \(hits) hits")
    }

    /// A real second process (`HTTPCacheWorker`) reads and writes the same entries as this one.
    @Test func twoProcessesSharingOneFolderServeOnlyWholeEntries() async throws {
        let folder = try TemporaryDirectory(prefix: "HTTPCacheDiskTests")
        defer { folder.remove() }
        let server = StubServer()
        try server.start()
        defer { server.stop() }
        let sent = Locked(0)
        server.route(
            "GET", "/shared/*",
            handler: { request in
                let version = sent.withLock { count -> Int in
                    count += 1
                    return count
                }
                return .text(VersionedBody.text(path: request.path, version: version))
                    .header("Cache-Control", "max-age=86400").header("ETag", "\"v\(version)\"")
            })
        let childDone = Locked(false)
        let child = Task {
            defer { childDone.withLock { $0 = true } }
            return try await ProgramRun.run(
                "HTTPCacheWorker", [folder.url.path, server.baseURL.absoluteString, "240"])
        }
        let observer = RecordingObserver()
        let client = FetchClient {
            $0.cache = try? HTTPCache(directory: folder.url, memoryBytes: 0)
            $0.observers = [observer]
        }
        var round = 0
        // Bounded by count: at least 120 rounds, and on while the child runs (at most 2000).
        while round < 120 || (!childDone.current && round < 2000) {
            var endpoint = TestEndpoint(baseURL: server.baseURL, path: "/shared/\(round % 4)")
            endpoint.cachePolicy = round % 4 == 1 ? .revalidate : .useProtocol
            let text = try await client.fetch(endpoint, extracting: .string)
            #expect(VersionedBody.isWhole(text, path: endpoint.path), "round \(round): \(text.prefix(40))…")
            round += 1
        }
        let run = try await child.value
        #expect(run.status == 0, "\(run)")
        let words = run.output.split(whereSeparator: \.isWhitespace)
        #expect(words.first == "ok", "\(run)")
        #expect(words.count == 3 && (Int(words[1]) ?? 0) > 0, "the child read entries from the files: \(run)")
        #expect(
            observer.finished.current.contains { $0.1.cacheUse == .hit }, "this process read entries from the files")

        let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
        #expect(names.filter { !$0.hasSuffix(".fkcache") }.isEmpty, "no temporary file is left behind: \(names)")
        let reader = try HTTPCache(directory: folder.url, memoryBytes: 0)
        #expect(reader.count == 4)
        for index in 0..<4 {
            let path = "/shared/\(index)"
            let entry = reader.entry(for: HTTPCache.key(method: "GET", url: server.url(path), redactor: .standard))
            let body = try #require(entry?.body, "the entry of \(path) reads back")
            #expect(VersionedBody.isWhole(String(decoding: body, as: UTF8.self), path: path))
        }
    }

    @Test func headersThatEchoTheRequestURLKeepNoSecretOnDisk() async throws {
        let folder = try TemporaryDirectory(prefix: "HTTPCacheDiskTests")
        defer { folder.remove() }
        let server = StubServer()
        try server.start()
        defer { server.stop() }
        let key = "sekrit-api-key-4321"
        server.route(
            "GET", "/movie/7",
            handler: { [server] request in
                .json(#"{"id":7}"#).header("Cache-Control", "max-age=86400")
                    .header("Content-Location", request.target)
                    .header("Link", "<\(server.url(request.target).absoluteString)>; rel=\"canonical\"")
                    .header("X-Echo", "you sent \(request.queryValue("api_key") ?? "nothing")")
            })
        let adapter = APIKeyAdapter(.query(name: "api_key"), value: key)
        let first = FetchClient {
            $0.cache = try? HTTPCache(directory: folder.url)
            $0.adapters = [adapter]
        }
        let endpoint = TestEndpoint(
            baseURL: server.baseURL, path: "/movie/7", queryItems: [.init(name: "page", value: "2")])
        _ = try await first.fetch(endpoint, extracting: .data)
        #expect(server.requests(to: "/movie/7").first?.queryValue("api_key") == key, "the key was sent")

        let files = try FileManager.default.contentsOfDirectory(at: folder.url, includingPropertiesForKeys: nil)
        #expect(files.count == 1)
        for file in files {
            let bytes = try Data(contentsOf: file)
            #expect(bytes.range(of: Data(key.utf8)) == nil, "the key reached \(file.lastPathComponent)")
            #expect(!file.lastPathComponent.contains(key))
            let text = String(decoding: bytes, as: UTF8.self)
            let redacted = text.components(separatedBy: "api_key=REDACTED").count - 1
            #expect(redacted == 3, "the key, Content-Location and Link are kept, redacted")
            #expect(text.contains("you sent REDACTED"), "X-Echo is kept, redacted")
        }

        let observer = RecordingObserver()
        let second = FetchClient {
            $0.cache = try? HTTPCache(directory: folder.url, memoryBytes: 0)
            $0.adapters = [adapter]
            $0.observers = [observer]
        }
        #expect(try await second.fetch(endpoint, extracting: .string) == #"{"id":7}"#)
        #expect(observer.finished.current.last?.1.cacheUse == .hit, "the redacted entry is still served")
        #expect(server.requests(to: "/movie/7").count == 1)
    }
}

/// The checksum of the entry files.
@Suite struct CRC32Tests {
    /// The checksum bit by bit, as the standard defines it.
    static func reference(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    @Test func theCheckValueOfTheStandardIsMet() {
        var crc = CRC32()
        crc.update(Data("123456789".utf8))
        #expect(crc.value == 0xCBF4_3926)
        #expect(CRC32().value == 0)
    }

    @Test func anyLengthAndAnySplitGiveTheChecksumOfTheWhole() {
        var generator = SeededGenerator(seed: 25)
        let bytes = (0..<300).map { _ in UInt8.random(in: 0...255, using: &generator) }
        for length in [0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 299, 300] {
            let piece = Array(bytes.prefix(length))
            var whole = CRC32()
            whole.update(Data(piece))
            #expect(whole.value == Self.reference(piece), "length \(length)")
            let split = length / 3
            var pieces = CRC32()
            pieces.update(Data(piece.prefix(split)))
            pieces.update(Data(piece.dropFirst(split)))
            #expect(pieces.value == whole.value, "length \(length) split at \(split)")
        }
    }
}
