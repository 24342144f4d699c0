/// Why an ``HTTPArchive`` could not be read or written, or a replay had no answer.
///
/// A ``ReplayTransport`` completes a request it has no recorded exchange for with this error,
/// which the client reports as a `FetchError` with code
/// `.transportFailed` whose description is this one's.
public struct HTTPArchiveError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Equatable {
        /// The file cannot be read, or is not a HAR.
        case unreadable
        /// The file cannot be written.
        case unwritable
        /// The archive has no exchange for the request; ``HTTPArchiveError/nearest`` names the
        /// recorded request most like it.
        case noMatch
        /// The archive has the exchange, but its response body was not kept.
        case bodyNotRecorded
    }

    /// What went wrong.
    public let kind: Kind
    /// For ``Kind-swift.enum/noMatch``: the recorded request most like the one that had no
    /// match, such as `GET https://api.example.com/v1/books?q=cats&page=2`; `nil` otherwise or
    /// when the archive is empty.
    public let nearest: String?
    /// What went wrong and what to do, in a sentence or two.
    public let description: String

    init(_ kind: Kind, _ description: String, nearest: String? = nil) {
        self.kind = kind
        self.description = description
        self.nearest = nearest
    }
}
