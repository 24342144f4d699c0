import Foundation
import Testing

@testable import Decoding

/// Decodes the same data both ways (the fast path first, and `JSONDecoder` with the path-aware
/// wrapper only) and checks the soundness rule: when the fast path returns a value it is the
/// other path's value, when it throws its error is the other path's error (case, coding path
/// and debug description of the `DecodingError` behind it included), and ``PathDecoder``
/// returns what the other path returns, value or error.
enum Differential {
    /// What the fast path did with one input.
    enum FastOutcome: Equatable {
        /// It returned a value.
        case decoded
        /// It threw the error the other path throws, without the other path.
        case failed
        /// It gave up, and the other path decoded.
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
        case (.failure(let want), .failure(let got)) where fast.deferred == .keyOrder:
            // Both are `JSONDecoder`'s own runs, and it meets a dictionary's members in the
            // order of that run's `Dictionary`, whose hash seed comes from where its storage was
            // allocated: two runs agree only when the allocator hands back the same address
            // (as it usually does, and AddressSanitizer's quarantine never does). Which wrong
            // member is reported first is not the fast path's to match.
            #expect(got.code == want.code, sourceLocation: sourceLocation)
            #expect(
                ErrorShape(got.underlying).kind == ErrorShape(want.underlying).kind, sourceLocation: sourceLocation)
        case (.failure(let want), .failure(let got)):
            expectSameFailure(got, want, sourceLocation: sourceLocation)
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
        case .failure(.failed(let failure)):
            guard case .failure(let want) = expected else {
                Issue.record(
                    "the fast path threw \(failure) where the other path returns a value",
                    sourceLocation: sourceLocation)
                return .failed
            }
            expectSameFailure(failure, want, sourceLocation: sourceLocation)
            return .failed
        case .failure(.deferred(let deferral)):
            return .deferred(deferral.reason)
        }
    }

    /// Checks that two failures are the same: description, code, path, and the `DecodingError`
    /// behind them (see ``ErrorShape``).
    static func expectSameFailure(
        _ got: DecodingFailure, _ want: DecodingFailure, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(got.description == want.description, sourceLocation: sourceLocation)
        #expect(got.code == want.code, sourceLocation: sourceLocation)
        #expect(got.path == want.path, sourceLocation: sourceLocation)
        #expect(ErrorShape(got.underlying) == ErrorShape(want.underlying), sourceLocation: sourceLocation)
    }

    private static func decode<T: Decodable>(
        _ type: T.Type, _ data: Data, at path: String?, with decoder: PathDecoder
    ) throws(DecodingFailure) -> T {
        if let path { return try decoder.decode(type, from: data, at: path) }
        return try decoder.decode(type, from: data)
    }
}

extension Result where Failure == FastPathStop {
    /// Why the fast path deferred, or `nil` when it decided itself.
    var deferred: FastDeferral.Reason? {
        guard case .failure(.deferred(let deferral)) = self else { return nil }
        return deferral.reason
    }
}

/// What can be compared of a `DecodingError`: its case, the type or key it names, its coding
/// path (string and integer values of each key), its debug description, and whether it has an
/// underlying error.
struct ErrorShape: Equatable, CustomStringConvertible {
    var kind: String
    var subject: String
    var codingPath: [String]
    var debugDescription: String
    var hasUnderlyingError: Bool

    init(_ error: DecodingError?) {
        guard let error else {
            (kind, subject, codingPath, debugDescription, hasUnderlyingError) = ("none", "", [], "", false)
            return
        }
        let context: DecodingError.Context
        switch error {
        case .typeMismatch(let type, let found): (kind, subject, context) = ("typeMismatch", "\(type)", found)
        case .valueNotFound(let type, let found): (kind, subject, context) = ("valueNotFound", "\(type)", found)
        case .keyNotFound(let key, let found): (kind, subject, context) = ("keyNotFound", Self.spell(key), found)
        case .dataCorrupted(let found): (kind, subject, context) = ("dataCorrupted", "", found)
        @unknown default:
            (kind, subject, codingPath, debugDescription, hasUnderlyingError) = ("unknown", "\(error)", [], "", false)
            return
        }
        codingPath = context.codingPath.map(Self.spell)
        debugDescription = context.debugDescription
        hasUnderlyingError = context.underlyingError != nil
    }

    private static func spell(_ key: any CodingKey) -> String {
        key.intValue.map { "\(key.stringValue)#\($0)" } ?? key.stringValue
    }

    var description: String { "\(kind)(\(subject)) at \(codingPath): \(debugDescription)" }
}
