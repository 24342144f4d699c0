import FetchKit
import Foundation
import Locking

/// Finds the recorded exchange that answers a request: what ``ReplayTransport`` and
/// ``StubServer/replay(_:redactor:)`` share.
///
/// A request matches an entry with the same method, path and query, secret query values
/// ignored (both sides are compared redacted, so a recording made with one key replays with
/// another). Among several such entries it prefers those of the request's host, then those whose
/// recorded body equals the request's (both redacted); the entries left answer in the order they
/// were recorded, one per request, the last one repeating once all have answered (so a poll or a
/// paged list replays as it was recorded).
final class ArchiveReplayer: Sendable {
    private struct Key: Sendable {
        var method: String
        var target: String
        var host: String?
    }

    private let entries: [HTTPArchive.Entry]
    private let keys: [Key]
    private let redactor: Redactor
    /// How many requests each set of equal entries has answered.
    private let served = Locked([[Int]: Int]())

    init(_ archive: HTTPArchive, redactor: Redactor) {
        self.entries = archive.entries
        self.redactor = redactor
        self.keys = archive.entries.map { entry in
            let components = URLComponents(string: entry.url)
            return Key(
                method: entry.method.uppercased(), target: Self.target(components, redactor), host: components?.host)
        }
    }

    /// The entry that answers `method` `url` with `body`, or the error that names the nearest one.
    func answer(
        method: String, url: URL, body: Data?, contentType: String?
    ) -> Result<HTTPArchive.Entry, HTTPArchiveError> {
        let method = method.uppercased()
        let components = URLComponents(url: url, resolvingAgainstBaseURL: true)
        let target = Self.target(components, redactor)
        var candidates = keys.indices.filter { keys[$0].method == method && keys[$0].target == target }
        guard !candidates.isEmpty else { return .failure(miss(method, url: url, target: target)) }
        let sameHost = candidates.filter { keys[$0].host == components?.host }
        if !sameHost.isEmpty { candidates = sameHost }
        if let body {
            let sent = comparable(body, contentType: contentType)
            let sameBody = candidates.filter { index in
                entries[index].requestBody.map {
                    comparable($0, contentType: HARDocument.header("content-type", in: entries[index].requestHeaders))
                } == sent
            }
            if !sameBody.isEmpty { candidates = sameBody }
        }
        let turn = served.withLock { served in
            defer { served[candidates, default: 0] += 1 }
            return served[candidates, default: 0]
        }
        let entry = entries[candidates[min(turn, candidates.count - 1)]]
        guard entry.failure != nil || entry.responseBody != nil else {
            return .failure(
                HTTPArchiveError(
                    .bodyNotRecorded,
                    "The recording of \(summary(entry)) has no response body: the recorder kept none (it was "
                        + "larger than its maximumBodySize) or the browser that exported it did not save it. Record "
                        + "it again (with a larger limit), or put the body in the archive's entry."))
        }
        return .success(entry)
    }

    /// The request's path and query as compared: percent-encoded, secret values redacted.
    private static func target(_ components: URLComponents?, _ redactor: Redactor) -> String {
        guard let components else { return "" }
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        guard let query = components.percentEncodedQuery else { return path }
        return path + "?" + redactor.redact(query: query)
    }

    private func comparable(_ body: Data, contentType: String?) -> Data {
        guard let text = String(data: body, encoding: .utf8) else { return body }
        return Data(redactor.redact(body: text, contentType: contentType).utf8)
    }

    private func miss(_ method: String, url: URL, target: String) -> HTTPArchiveError {
        let asked = "\(method) \(target)"
        let nearest = keys.indices.min { first, second in
            distance(asked, keys[first]) < distance(asked, keys[second])
        }
        let request = "\(method) \(redactor.describe(url))"
        guard let nearest else {
            return HTTPArchiveError(
                .noMatch, "The recording has no exchanges, so nothing answers \(request). Record the session first.")
        }
        let entry = entries[nearest]
        let summary = summary(entry)
        let answered = entry.failure.map { "failed with URLError \($0.rawValue)" } ?? "answered \(entry.status)"
        return HTTPArchiveError(
            .noMatch,
            "The recording has no exchange for \(request) (matched by method, path and query, secret values "
                + "ignored). The nearest recorded one: \(summary) (entry \(nearest + 1) of \(entries.count), "
                + "\(answered)). Record the session again, or check what the code under test sends.",
            nearest: summary)
    }

    /// An entry's request as an error names it: its URL redacted (an archive a browser exported is not).
    private func summary(_ entry: HTTPArchive.Entry) -> String {
        "\(entry.method) \(URL(string: entry.url).map(redactor.describe) ?? entry.url)"
    }

    /// How unlike `asked` an entry is: the edit distance of `METHOD target`, plus a large step
    /// for another method, so the nearest is the same call with other arguments where there is one.
    private func distance(_ asked: String, _ key: Key) -> Int {
        let methodStep = asked.hasPrefix(key.method + " ") ? 0 : 1_000
        return methodStep
            + Self.editDistance(Array(asked.utf8.prefix(512)), Array("\(key.method) \(key.target)".utf8.prefix(512)))
    }

    private static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        if a.isEmpty { return b.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
