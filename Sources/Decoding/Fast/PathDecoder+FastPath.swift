import Foundation

/// How a decoding on the fast path ends when it returns no value.
enum FastPathStop: Error {
    /// The fast path gave up; the `JSONDecoder` route decodes the data from the start.
    case deferred(FastDeferral)
    /// The data does not fit the type: the failure the `JSONDecoder` route throws too.
    case failed(DecodingFailure)
}

extension PathDecoder {
    /// Decodes `type` from `data` (at `path`, when given) on the fast path, or throws the
    /// failure, or why the fast path stops.
    ///
    /// The fast path parses the text once and decodes through ``FastDecoder``. A request that
    /// does not fit the data throws the `DecodingError` `JSONDecoder` throws, which the type
    /// may catch; an error nothing catches ends the decoding as ``FastPathStop/failed(_:)``,
    /// the failure the `JSONDecoder` route throws. Only what the fast path cannot answer as
    /// that route would (see ``FastDeferral``) ends it as ``FastPathStop/deferred(_:)``, even
    /// when the type caught it. What the lenient helpers record in the ``DecodingReport``
    /// reaches the caller's report only when the fast path returns a value. (A typed throw,
    /// not a `Result`, whose metadata generic code would look up on every call.)
    func fastDecode<T: Decodable>(
        _ type: T.Type, from data: Data, at path: PathExpression? = nil
    ) throws(FastPathStop) -> T {
        guard case .useDefaultKeys = keyDecodingStrategy else { throw .deferred(FastDeferral(reason: .settings)) }
        if isStrict {
            do { try JSONValidator.validate(data) } catch { throw .deferred(FastDeferral(reason: .notStrictJSON)) }
        }
        let settings = FastSettings(self)
        guard let report = ReportCollector.current else {
            return try finish(Self.fastDecode(type, from: data, at: path, settings: settings), data: data)
        }
        // Entries are kept apart until the fast path returns a value: when it defers, the other
        // path records them again.
        let attempt = ReportCollector()
        let result = ReportCollector.$current.withValue(attempt) {
            Self.fastDecode(type, from: data, at: path, settings: settings)
        }
        let value = try finish(result, data: data)
        report.append(contentsOf: attempt)
        return value
    }

    /// The value, or the failure for the error the fast path ended with, as the `JSONDecoder`
    /// route reports it.
    private func finish<T>(_ result: Result<T, FastPathError>, data: Data) throws(FastPathStop) -> T {
        switch result {
        case .success(let value): return value
        case .failure(.deferred(let deferral)): throw .deferred(deferral)
        case .failure(.thrown(let error)): throw .failed(failure(forThrown: error, data: data))
        }
    }

    private static func fastDecode<T: Decodable>(
        _ type: T.Type, from data: Data, at path: PathExpression?, settings: FastSettings
    ) -> Result<T, FastPathError> {
        // The text is read where it lies, not copied: the session and its containers hold the
        // bytes only while this call runs.
        data.withUnsafeBytes { raw in
            fastDecode(type, text: raw.assumingMemoryBound(to: UInt8.self), at: path, settings: settings)
        }
    }

    private static func fastDecode<T: Decodable>(
        _ type: T.Type, text bytes: UnsafeBufferPointer<UInt8>, at path: PathExpression?, settings: FastSettings
    ) -> Result<T, FastPathError> {
        let parsed = Result { () throws(FastDeferral) in try JSONParser.parse(bytes) }
        let nodes: [JSONNode]
        switch parsed {
        case .success(let parsedNodes): nodes = parsedNodes
        case .failure(let deferral): return .failure(.deferred(deferral))
        }
        // Converted only when set: the common decoding builds no dictionary.
        var userInfo: [CodingUserInfoKey: Any] = [:]
        if !settings.userInfo.isEmpty { userInfo = settings.userInfo }
        if let path, let key = ValueAtPathOptions.pathKey { userInfo[key] = path }
        let session = FastDecodingSession(
            bytes: bytes, nodes: nodes, userInfo: userInfo, datesAreDeferred: settings.datesAreDeferred,
            floatsMayBeStrings: settings.floatsMayBeStrings)
        let value: T
        do {
            if let path {
                value = try session.decode(type, at: path)
            } else {
                value = try session.decodeValue(type, at: 0, parent: nil, component: nil)
            }
        } catch {
            if let deferral = session.deferral { return .failure(.deferred(deferral)) }
            // `PathDecoder` decodes a leaf at the top that Foundation refuses again through
            // the path-aware wrapper (see ``PathDecoder/decode(_:from:)``).
            if path == nil, isDirectlyDecodable(T.self), case DecodingError.dataCorrupted(let context) = error,
                context.codingPath.isEmpty
            {
                return .failure(.deferred(FastDeferral(reason: .refusedAtTheTop)))
            }
            if session.keysWereListed { return .failure(.deferred(FastDeferral(reason: .keyOrder))) }
            return .failure(.thrown(error))
        }
        if let deferral = session.deferral { return .failure(.deferred(deferral)) }
        return .success(value)
    }
}

/// How the fast path's own decoding ended without a value.
private enum FastPathError: Error {
    case deferred(FastDeferral)
    /// The error a type or a container threw, and nothing caught.
    case thrown(any Error)
}

/// The settings of a ``PathDecoder`` the fast path reads.
private struct FastSettings {
    /// Whether dates decode through `Date(from:)` (`.deferredToDate`).
    let datesAreDeferred: Bool
    /// Whether floating-point values may be read from strings.
    let floatsMayBeStrings: Bool
    /// The decoder's `userInfo`.
    let userInfo: [CodingUserInfoKey: any Sendable]

    init(_ decoder: PathDecoder) {
        userInfo = decoder.userInfo
        if case .deferredToDate = decoder.dateDecodingStrategy {
            datesAreDeferred = true
        } else {
            datesAreDeferred = false
        }
        if case .throw = decoder.nonConformingFloatDecodingStrategy {
            floatsMayBeStrings = false
        } else {
            floatsMayBeStrings = true
        }
    }
}
