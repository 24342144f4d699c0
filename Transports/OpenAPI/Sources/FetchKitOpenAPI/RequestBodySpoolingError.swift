public import Foundation

/// A request body longer than ``FetchClientTransport/bufferedRequestBodyLimit`` could not be
/// copied to the temporary folder it is streamed from.
///
/// The generated client wraps it in a `ClientError`, as its `underlyingError`. Set the
/// `FetchClient`'s `temporaryDirectory` to a folder the process can write.
public struct RequestBodySpoolingError: Error, CustomStringConvertible {
    /// The folder the body was to be copied to.
    public let folder: URL
    /// What went wrong, as the file system said it.
    public let reason: String

    /// What failed and what to do about it.
    public var description: String {
        "A request body of more than 1 MiB could not be copied to the temporary folder \(folder.path) "
            + "(\(reason)). Set the FetchClient's temporaryDirectory to a folder this process can write."
    }
}
