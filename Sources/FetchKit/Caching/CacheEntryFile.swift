import Foundation

/// The bytes of one disk-cache entry, and how they are checked when they are read back.
///
/// An entry file holds, in order (integers big-endian):
///
/// | Bytes | Field |
/// |-------|-------|
/// | 4 | the magic number, `FKCE` |
/// | 4 | the format version, 2 |
/// | 4 | the head's length |
/// | 8 | the body's length |
/// | 4 | the CRC-32 of the three fields before it, the head and the body |
/// | head's length | the head: key, status, headers, received and requested dates, vary values and a variant index's generation, as JSON |
/// | body's length | the body |
///
/// and nothing after. A file is read with plain reads into memory (never mapped, so a file
/// cut short by another process is a short read, not a crash), and it is an entry only when
/// every byte is there, the lengths match what was read, nothing follows, and the checksum
/// holds. Anything else (the earlier format, a torn or truncated file, a flipped bit, a
/// zeroed byte) is damage.
enum CacheEntryFile {
    static let magic = Data("FKCE".utf8)
    static let version: UInt32 = 2
    /// The bytes before the head.
    static let prefixLength = 24
    /// The longest head written or read: a response's headers fit many times over.
    static let maximumHeadLength = 1 << 20

    /// The stored description of a response.
    private struct Head: Codable {
        var key: String
        var status: Int
        var headers: [String: String]
        var receivedAt: Date
        var varyValues: [String: String]
        var requestedAt: Date?
        var generation: String?
    }

    /// The file's bytes in two parts, written one after the other: the prefix and head, then
    /// the body (not copied); `nil` when the head is too long to store.
    static func encode(_ entry: CachedResponse) -> (prefixAndHead: Data, body: Data)? {
        let head = Head(
            key: entry.key, status: entry.status, headers: entry.headers, receivedAt: entry.receivedAt,
            varyValues: entry.varyValues, requestedAt: entry.requestedAt, generation: entry.generation)
        guard let json = try? JSONEncoder().encode(head), json.count <= maximumHeadLength else { return nil }
        var fields = Data()
        append(version, to: &fields)
        append(UInt32(json.count), to: &fields)
        append(UInt64(entry.body.count), to: &fields)
        var checksum = CRC32()
        checksum.update(fields)
        checksum.update(json)
        checksum.update(entry.body)
        var bytes = magic
        bytes.append(fields)
        append(checksum.value, to: &bytes)
        bytes.append(json)
        return (bytes, entry.body)
    }

    /// Reads the entry in an open file from its start; `nil` when the file is not exactly one
    /// whole entry of this format.
    ///
    /// - Parameters:
    ///   - descriptor: the file, open for reading at offset 0.
    ///   - size: its size when it was opened: a mismatch rejects it before any allocation.
    ///     The reads themselves never rely on it: a file that shrinks or grows meanwhile reads
    ///     short or long, and is rejected.
    ///   - bodyLimit: the longest body the cache could have stored.
    static func read(from descriptor: Int32, size: Int, bodyLimit: Int) -> CachedResponse? {
        var prefix = Data(count: prefixLength)
        guard readFully(descriptor, into: &prefix) == prefixLength, prefix.prefix(4) == magic,
            integer(in: prefix, at: 4, as: UInt32.self) == version
        else { return nil }
        let headLength = Int(integer(in: prefix, at: 8, as: UInt32.self))
        let bodyLength = integer(in: prefix, at: 12, as: UInt64.self)
        guard headLength > 0, headLength <= maximumHeadLength, bodyLength <= UInt64(max(0, bodyLimit)),
            prefixLength + headLength + Int(bodyLength) == size
        else { return nil }
        var head = Data(count: headLength)
        var body = Data(count: Int(bodyLength))
        var after = Data(count: 1)
        guard readFully(descriptor, into: &head) == headLength, readFully(descriptor, into: &body) == body.count,
            readFully(descriptor, into: &after) == 0
        else { return nil }
        var checksum = CRC32()
        checksum.update(prefix[4..<20])
        checksum.update(head)
        checksum.update(body)
        guard checksum.value == integer(in: prefix, at: 20, as: UInt32.self),
            let decoded = try? JSONDecoder().decode(Head.self, from: head)
        else { return nil }
        return CachedResponse(
            key: decoded.key, status: decoded.status, headers: decoded.headers, body: body,
            receivedAt: decoded.receivedAt, varyValues: decoded.varyValues, requestedAt: decoded.requestedAt,
            generation: decoded.generation)
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to data: inout Data) {
        withUnsafeBytes(of: value.bigEndian) { data.append(contentsOf: $0) }
    }

    private static func integer<T: FixedWidthInteger>(in data: Data, at offset: Int, as type: T.Type) -> T {
        let start = data.startIndex + offset
        return data[start..<(start + MemoryLayout<T>.size)].reduce(T.zero) { $0 << 8 | T($1) }
    }
}

/// Reads into `buffer` until it is full or the file ends; the count read, or `nil` on a read error.
private func readFully(_ descriptor: Int32, into buffer: inout Data) -> Int? {
    buffer.withUnsafeMutableBytes { bytes -> Int? in
        guard let base = bytes.baseAddress else { return 0 }
        var done = 0
        while done < bytes.count {
            let count = read(descriptor, base + done, bytes.count - done)
            if count > 0 {
                done += count
            } else if count == 0 {
                break
            } else if errno != EINTR {
                return nil
            }
        }
        return done
    }
}
