import Locking

/// The process-wide cache of parsed paths, keyed by the path string.
///
/// Coding keys are static, so the cache holds one entry per distinct key string that has
/// path syntax; plain keys never reach it. Lookups hash the string's ``StringIdentity`` (for
/// the string literals of `CodingKeys` that is a stable pointer) rather than its characters,
/// and confirm a hit by comparing the strings, so a lookup costs a few nanoseconds instead of
/// hashing the whole path.
final class PathCache: Sendable {
    static let shared = PathCache()

    /// Entries (and prefix numbers) beyond this reset the cache: static keys stay far below it,
    /// paths built from data would otherwise grow it forever.
    static let maximumEntries = 10_000

    /// One cached key: immutable, so handing it out costs a single retain.
    private final class Entry: Sendable {
        let text: String
        let result: Result<PathExpression, PathSyntaxError>

        init(text: String, result: Result<PathExpression, PathSyntaxError>) {
            self.text = text
            self.result = result
        }
    }

    private struct State {
        var entries: [StringIdentity: Entry] = [:]
        var byText: [String: Result<PathExpression, PathSyntaxError>] = [:]
        /// Process-wide numbers for path prefixes (see ``PathExpression/prefixIDs``).
        var prefixIDs: [String: Int] = [:]
        /// The next prefix number; never reused, so a path parsed before a reset keeps
        /// numbers no later path can be given for another prefix.
        var nextPrefixID = 0

        /// Remembers `result` for `text`, emptying the caches first when they are full.
        mutating func remember(
            _ identity: StringIdentity, _ text: String, _ result: Result<PathExpression, PathSyntaxError>
        ) {
            if entries.count >= PathCache.maximumEntries || byText.count >= PathCache.maximumEntries {
                entries.removeAll(keepingCapacity: true)
                byText.removeAll(keepingCapacity: true)
            }
            entries[identity] = Entry(text: text, result: result)
        }

        /// The number of `prefix`, assigning the next one on first use.
        mutating func prefixID(_ prefix: String) -> Int {
            if let id = prefixIDs[prefix] { return id }
            if prefixIDs.count >= PathCache.maximumEntries { prefixIDs.removeAll(keepingCapacity: true) }
            let id = nextPrefixID
            nextPrefixID += 1
            prefixIDs[prefix] = id
            return id
        }
    }

    private let state = Locked(State())

    /// The parsed form of `text`, parsing it on first use.
    func expression(for text: String) -> Result<PathExpression, PathSyntaxError> {
        let identity = StringIdentity(text)
        let cached = state.withLock { state -> Result<PathExpression, PathSyntaxError>? in
            if let entry = state.entries[identity], entry.text == text { return entry.result }
            guard let result = state.byText[text] else { return nil }
            state.remember(identity, text, result)
            return result
        }
        if let cached { return cached }
        return state.withLock { state in
            // Another thread may have parsed it meanwhile; numbering its prefixes twice would
            // give one prefix two numbers.
            if let result = state.byText[text] { return result }
            let parsed: Result<PathExpression, PathSyntaxError>
            do throws(PathSyntaxError) {
                parsed = .success(try PathExpression(parsing: text) { state.prefixID($0) })
            } catch {
                parsed = .failure(error)
            }
            state.byText[text] = parsed
            state.remember(identity, text, parsed)
            return parsed
        }
    }
}
