import Foundation

/// Percent-encoding for query items and path segments.
///
/// Only RFC 3986's unreserved characters (`A–Z a–z 0–9 - . _ ~`) pass through; every
/// other byte of the UTF-8 form is escaped. This is stricter than `URLComponents`, which
/// leaves `+` unescaped in query values (servers read it as a space), and much stricter
/// than `.urlHostAllowed`, which leaves `&`, `=` and `+` alone and breaks a movie called
/// "Fast & Furious".
enum PercentEncoding {
    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    /// Escapes every byte that is not unreserved.
    static func encode(_ text: String) -> String {
        if text.utf8.allSatisfy(isUnreserved) { return text }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isUnreserved(byte) {
                bytes.append(byte)
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Encodes query items as `name=value` pairs joined by `&`; an item without a value is just its name.
    static func encodeQuery(_ items: [URLQueryItem]) -> String {
        items.map { item in
            let name = encode(item.name)
            guard let value = item.value else { return name }
            return name + "=" + encode(value)
        }
        .joined(separator: "&")
    }

    /// A URL joined as text, and whether its text already shows it can be fetched.
    struct JoinedURL {
        /// The URL.
        var url: URL
        /// Whether the base's scheme is `http` or `https` and its host is not empty, so the
        /// URL needs no further ``URLValidation`` check.
        var isHTTPWithHost: Bool
        /// The URL's host key (``URLValidation/hostKey(of:)``), read from the base's text;
        /// `nil` when the URL is not http or https with a host, or its port is beyond 65535.
        var hostKey: String?
    }

    /// The URL of `path` and `query` under `base`, joined as text, when `base` is a plain
    /// `scheme://host[:port][/path]` (unreserved characters, `:` and `/` only, no query,
    /// fragment, user or escape, a port written as `URLComponents` writes it): the same URL
    /// the `URLComponents` route gives, for a fraction of its cost. `nil` for any other
    /// base, which takes that route.
    static func joined(_ base: String, path: String, query: [URLQueryItem]) -> JoinedURL? {
        let shape =
            base.utf8.withContiguousStorageIfAvailable(plainBaseShape)
            ?? Array(base.utf8).withUnsafeBufferPointer(plainBaseShape)
        guard let shape else { return nil }
        var text = Substring(base)
        // Byte checks: `hasSuffix` on text compares by grapheme cluster, which costs more.
        while text.utf8.last == UInt8(ascii: "/") { text.removeLast() }
        var joined = String(text)
        let encodedPath = encodePath(path)
        if !encodedPath.isEmpty {
            if encodedPath.utf8.first != UInt8(ascii: "/") { joined += "/" }
            joined += encodedPath
        }
        if !query.isEmpty { joined += "?" + encodeQuery(query) }
        guard let url = URL(string: joined) else { return nil }
        return JoinedURL(url: url, isHTTPWithHost: shape.isHTTPWithHost, hostKey: shape.hostKey)
    }

    /// What ``plainBaseShape(_:)`` learns of a plain base.
    private struct BaseShape {
        var isHTTPWithHost: Bool
        var hostKey: String?
    }

    /// The shape of `bytes` when they are a plain base, `scheme://host[:port][/path]` made of
    /// unreserved characters, `:` and `/`, whose port has no leading zero (`URLComponents`
    /// rewrites `host:` as `host` and `host:080` as `host:80`); `nil` otherwise. Read byte by
    /// byte: Foundation's `range(of:)` costs more than the whole join.
    private static func plainBaseShape(_ bytes: UnsafeBufferPointer<UInt8>) -> BaseShape? {
        let colon = UInt8(ascii: ":")
        let slash = UInt8(ascii: "/")
        guard bytes.allSatisfy({ isUnreserved($0) || $0 == colon || $0 == slash }) else { return nil }
        // The first "://", which must be followed by an authority.
        var separator: Int?
        var index = 0
        while index + 2 < bytes.count {
            if bytes[index] == colon, bytes[index + 1] == slash, bytes[index + 2] == slash {
                separator = index
                break
            }
            index += 1
        }
        guard let separator else { return nil }
        let authorityStart = separator + 3
        guard authorityStart < bytes.count, bytes[authorityStart] != slash else { return nil }
        var authorityEnd = authorityStart
        while authorityEnd < bytes.count, bytes[authorityEnd] != slash { authorityEnd += 1 }
        var hostEnd = authorityStart
        while hostEnd < authorityEnd, bytes[hostEnd] != colon { hostEnd += 1 }
        var port: Int?
        if hostEnd < authorityEnd {
            // A port: digits only, at least one, no leading zero unless it is just "0".
            let digits = UnsafeBufferPointer(rebasing: bytes[(hostEnd + 1)..<authorityEnd])
            guard !digits.isEmpty, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                digits[0] != UInt8(ascii: "0") || digits.count == 1
            else { return nil }
            // At most 65535 is a port; a longer run of digits leaves the key to `URL`'s getters.
            if digits.count <= 5 { port = digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) } }
            if port ?? 0 > 65_535 { port = nil }
        }
        let scheme = UnsafeBufferPointer(rebasing: bytes[..<separator])
        guard hostEnd > authorityStart, isHTTPScheme(scheme) else {
            return BaseShape(isHTTPWithHost: false, hostKey: nil)
        }
        let hasPort = hostEnd < authorityEnd
        let key =
            hasPort && port == nil
            ? nil
            : URLValidation.hostKey(
                host: UnsafeBufferPointer(rebasing: bytes[authorityStart..<hostEnd]),
                port: port ?? (scheme.count == 5 ? 443 : 80))
        return BaseShape(isHTTPWithHost: true, hostKey: key)
    }

    /// The bytes of `https`, whose first four spell `http`.
    private static let httpsBytes = Array("https".utf8)

    /// Whether `scheme` is `http` or `https`, in any case.
    private static func isHTTPScheme(_ scheme: UnsafeBufferPointer<UInt8>) -> Bool {
        // `| 0x20` lowers an ASCII letter; no other byte of a plain base becomes one of these.
        guard scheme.count == 4 || scheme.count == 5 else { return false }
        return scheme.indices.allSatisfy { scheme[$0] | 0x20 == httpsBytes[$0] }
    }

    /// Encodes a path: each segment between slashes is escaped; the slashes stay.
    static func encodePath(_ path: String) -> String {
        if path.utf8.allSatisfy({ isUnreserved($0) || $0 == UInt8(ascii: "/") }) { return path }
        return path.split(separator: "/", omittingEmptySubsequences: false).map { encode(String($0)) }.joined(
            separator: "/")
    }
}
