import FetchKit

/// A failure of a Flickr fetch, with a message a person can act on (never the API key).
struct FlickrError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure it was; `watch` stops on the ones retrying cannot fix.
    enum Kind: Sendable, Equatable {
        /// Flickr answered `"stat": "fail"` (with HTTP 200), such as code 100 for a bad key.
        case apiFailure
        /// The answer is not the JSON Flickr documents.
        case unreadableResponse
        /// The store could not be written.
        case store
    }

    let kind: Kind
    let description: String

    /// Whether another try a few minutes later cannot help, so `watch` should stop.
    var isFatal: Bool { kind != .unreadableResponse }

    static func apiFailure(_ failure: APIFailure, keyHint: String) -> FlickrError {
        FlickrError(kind: .apiFailure, description: "Flickr refused the request (stat: fail, \(failure)); \(keyHint)")
    }
}
