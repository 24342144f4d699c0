/// Response bodies that say which path and version they are, so that whoever reads one can
/// tell a whole body from a torn, truncated or mixed one (the shared-cache tests and their
/// second process, `HTTPCacheWorker`).
public enum VersionedBody {
    /// The body of version `version` of `path`: a first line naming both, then a run of one
    /// letter whose length and letter follow from the version.
    ///
    /// - Parameters:
    ///   - path: the request path, such as `/shared/2`.
    ///   - version: the server's count of bodies sent so far.
    /// - Returns: the body, 10 to 64 KB long.
    public static func text(path: String, version: Int) -> String {
        let letter = Character(Unicode.Scalar(UInt8(97 + version % 26)))
        return "\(path) v\(version)\n" + String(repeating: letter, count: 10_000 + (version % 7) * 9_000)
    }

    /// Whether `text` is exactly one version of `path`'s body.
    ///
    /// - Parameters:
    ///   - text: a body as a client received it.
    ///   - path: the path it was fetched from.
    /// - Returns: `true` when it is, byte for byte, ``text(path:version:)`` for some version.
    public static func isWhole(_ text: String, path: String) -> Bool {
        guard let newline = text.firstIndex(of: "\n") else { return false }
        let prefix = "\(path) v"
        let first = text[..<newline]
        guard first.hasPrefix(prefix), let version = Int(first.dropFirst(prefix.count)), version >= 0 else {
            return false
        }
        return text == Self.text(path: path, version: version)
    }
}
