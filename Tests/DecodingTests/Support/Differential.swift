import Foundation
import Testing

@testable import Decoding

/// Decodes the same data both ways (the fast path first, and `JSONDecoder` with the path-aware
/// wrapper only) and checks the soundness rule: when the fast path returns a value it is the
/// other path's value, and ``PathDecoder`` returns what the other path returns, value or error.
enum Differential {
    /// What the fast path did with one input.
    enum FastOutcome: Equatable {
        case decoded
        case deferred(FastDeferral.Reason)
    }

    /// Decodes `data` as `type` (at `path`, when given) both ways and compares.
    ///
    /// - Returns: whether the fast path returned a value, or why it deferred.
    @discardableResult
    static func compare<T: Decodable & Equatable>(
        _ type: T.Type, _ data: Data, at path: String? = nil, decoder: PathDecoder = PathDecoder(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> FastOutcome {
        var foundation = decoder
        foundation.route = .foundationOnly
        var automatic = decoder
        automatic.route = .automatic
        let expected = Result { () throws(DecodingFailure) in try decode(type, data, at: path, with: foundation) }
        let actual = Result { () throws(DecodingFailure) in try decode(type, data, at: path, with: automatic) }
        let fast = decoder.decodeOnFastPath(type, from: data, at: path.flatMap { try? PathExpression(parsing: $0) })
        switch (expected, actual) {
        case (.success(let want), .success(let got)):
            #expect(got == want, sourceLocation: sourceLocation)
        case (.failure(let want), .failure(let got)):
            #expect(got.description == want.description, sourceLocation: sourceLocation)
            #expect(got.code == want.code, sourceLocation: sourceLocation)
            #expect(got.path == want.path, sourceLocation: sourceLocation)
        default:
            Issue.record("the two ways disagree: \(actual) against \(expected)", sourceLocation: sourceLocation)
        }
        switch fast {
        case .success(let value):
            guard case .success(let want) = expected else {
                Issue.record(
                    "the fast path returned a value where the other path throws", sourceLocation: sourceLocation)
                return .decoded
            }
            #expect(value == want, sourceLocation: sourceLocation)
            return .decoded
        case .failure(let deferral):
            return .deferred(deferral.reason)
        }
    }

    private static func decode<T: Decodable>(
        _ type: T.Type, _ data: Data, at path: String?, with decoder: PathDecoder
    ) throws(DecodingFailure) -> T {
        if let path { return try decoder.decode(type, from: data, at: path) }
        return try decoder.decode(type, from: data)
    }
}
