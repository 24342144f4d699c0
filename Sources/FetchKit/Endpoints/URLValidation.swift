import Foundation

/// Checks that a URL can be fetched over HTTP.
enum URLValidation {
    /// Throws ``FetchError/Code-swift.struct/invalidURL`` unless `url` is http or https with a host.
    static func check(_ url: URL?) throws(FetchError) {
        _ = try validated(url)
    }

    /// Checks `url` as ``check(_:)`` does and returns its `host:port`, the host in lower case
    /// and the port the scheme implies when the URL names none: the key of the requests that
    /// share a server (host names are case-insensitive, so `Example.com` and `example.com` share one).
    static func hostKey(of url: URL?) throws(FetchError) -> String {
        if let url, let key = plainHostKey(url.absoluteString) { return key }
        let (url, scheme, host) = try validated(url)
        return host.lowercased() + ":" + String(url.port ?? (scheme == "https" ? 443 : 80))
    }

    /// The host key of `host` (ASCII bytes) and `port`: the host in lower case, `:` and the port.
    static func hostKey(host: UnsafeBufferPointer<UInt8>, port: Int) -> String {
        // Five digits at most: a port is at most 65535.
        String(unsafeUninitializedCapacity: host.count + 6) { buffer in
            var count = 0
            for byte in host {
                // `| 0x20` lowers an ASCII letter.
                buffer[count] = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
                count += 1
            }
            buffer[count] = UInt8(ascii: ":")
            count += 1
            var divisor = 10_000
            var value = port
            var started = false
            while divisor > 0 {
                let digit = value / divisor
                if digit > 0 || started || divisor == 1 {
                    buffer[count] = UInt8(ascii: "0") + UInt8(digit)
                    count += 1
                    started = true
                }
                value %= divisor
                divisor /= 10
            }
            return count
        }
    }

    /// The host key of a plain absolute URL (the host in lower case), read from its text: `http` or `https` in any case,
    /// `://`, a host of letters, digits, `-`, `.`, `_` and `~`, an optional port of one to five
    /// digits up to 65535, then the end, `/`, `?` or `#`. Its host and port are then what `URL`'s getters
    /// return, which cost several times more; `nil` for any other text, which the getters read.
    static func plainHostKey(_ text: String) -> String? {
        var text = text
        return text.withUTF8 { bytes -> String? in
            var index = 0
            while index < bytes.count, bytes[index] != UInt8(ascii: ":") { index += 1 }
            let secure: Bool
            switch index {
            case 4: secure = false
            case 5: secure = true
            default: return nil
            }
            // `| 0x20` lowercases a letter.
            guard bytes[0] | 0x20 == UInt8(ascii: "h"), bytes[1] | 0x20 == UInt8(ascii: "t"),
                bytes[2] | 0x20 == UInt8(ascii: "t"), bytes[3] | 0x20 == UInt8(ascii: "p"),
                !secure || bytes[4] | 0x20 == UInt8(ascii: "s")
            else { return nil }
            guard index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "/"), bytes[index + 2] == UInt8(ascii: "/")
            else { return nil }
            let hostStart = index + 3
            index = hostStart
            while index < bytes.count, isHostByte(bytes[index]) { index += 1 }
            let hostEnd = index
            guard hostEnd > hostStart else { return nil }
            var port: Int?
            if index < bytes.count, bytes[index] == UInt8(ascii: ":") {
                index += 1
                var value = 0
                var digits = 0
                while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                    value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                    digits += 1
                    index += 1
                }
                // A port beyond 65535 is not plain: `URL`'s getters read it.
                guard (1...5).contains(digits), value <= 65_535 else { return nil }
                port = value
            }
            if index < bytes.count {
                let next = bytes[index]
                guard next == UInt8(ascii: "/") || next == UInt8(ascii: "?") || next == UInt8(ascii: "#") else {
                    return nil
                }
            }
            return hostKey(
                host: UnsafeBufferPointer(rebasing: bytes[hostStart..<hostEnd]), port: port ?? (secure ? 443 : 80))
        }
    }

    private static func isHostByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    /// The URL with its lowercased scheme and its host, or the error that says what is missing.
    private static func validated(_ url: URL?) throws(FetchError) -> (url: URL, scheme: String, host: String) {
        guard let url else { throw FetchError(code: .invalidURL, detail: "the URL is nil") }
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw FetchError(code: .invalidURL, detail: "the scheme is not http or https")
        }
        guard let host = url.host, !host.isEmpty else {
            throw FetchError(code: .invalidURL, detail: "the URL has no host")
        }
        return (url, scheme, host)
    }
}
