import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Answers a `Range` request from a stored response (RFC 9110 §14, RFC 9111 §3.4): a whole
/// stored `200`, or a stored `206` whose `Content-Range` covers the bytes asked for.
///
/// Only a single range of bytes is answered (`bytes=0-1`, `bytes=1-`, `bytes=-1`); several
/// ranges, other units and ranges the stored bytes do not cover go to the server.
enum ByteRanges {
    /// The first and last byte a `Range` header asks for: `(first, nil)` for `bytes=first-`,
    /// `(nil, count)` for the suffix `bytes=-count`; `nil` when it is not one byte range.
    static func requested(_ header: String) -> (first: Int?, last: Int?)? {
        let text = header.trimmingCharacters(in: .whitespaces)
        guard text.lowercased().hasPrefix("bytes="), !text.contains(",") else { return nil }
        let spec = text.dropFirst("bytes=".count).trimmingCharacters(in: .whitespaces)
        let parts = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let first = parts[0].isEmpty ? nil : digits(parts[0])
        let last = parts[1].isEmpty ? nil : digits(parts[1])
        if parts[0].isEmpty {
            guard let last, last > 0 else { return nil }
            return (nil, last)
        }
        guard let first else { return nil }
        if !parts[1].isEmpty {
            guard let last, last >= first else { return nil }
        }
        return (first, last)
    }

    /// The stored bytes' place in the whole representation: from `offset`, of `total` bytes.
    static func coverage(of entry: CachedResponse) -> (offset: Int, total: Int)? {
        if entry.status == 200 { return (0, entry.body.count) }
        guard entry.status == 206, let contentRange = entry.header("Content-Range"),
            let (first, last, total) = contentRangeValues(contentRange), last - first + 1 == entry.body.count
        else { return nil }
        return (first, total)
    }

    /// A `206 Partial Content` for `range` from `entry`, or `nil` when the stored bytes do not
    /// cover it.
    static func partial(_ range: (first: Int?, last: Int?), from entry: CachedResponse) -> CachedResponse? {
        guard let (offset, total) = coverage(of: entry), total > 0 else { return nil }
        let start: Int
        var end: Int
        if let first = range.first {
            start = first
            end = min(range.last ?? total - 1, total - 1)
        } else {
            start = max(0, total - (range.last ?? 0))
            end = total - 1
        }
        end = min(end, total - 1)
        guard start <= end, start >= offset, end < offset + entry.body.count else { return nil }
        var partial = entry
        let base = entry.body.startIndex
        partial.body = entry.body.subdata(in: (base + start - offset)..<(base + end - offset + 1))
        partial.status = 206
        for name in partial.headers.keys
        where ["content-range", "content-length"].contains(name.lowercased()) {
            partial.headers[name] = nil
        }
        partial.headers["Content-Range"] = "bytes \(start)-\(end)/\(total)"
        partial.headers["Content-Length"] = String(partial.body.count)
        return partial
    }

    /// `bytes first-last/total` (a known total only).
    static func contentRangeValues(_ value: String) -> (Int, Int, Int)? {
        let text = value.trimmingCharacters(in: .whitespaces)
        guard text.lowercased().hasPrefix("bytes ") else { return nil }
        let rest = text.dropFirst("bytes ".count)
        let halves = rest.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard halves.count == 2, let total = digits(halves[1]) else { return nil }
        let bounds = halves[0].split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard bounds.count == 2, let first = digits(bounds[0]), let last = digits(bounds[1]), first <= last,
            last < total
        else { return nil }
        return (first, last, total)
    }

    private static func digits(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.count <= 18, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        return Int(text)
    }
}
