import Foundation

extension PathDecoder {
    /// Decodes `type` from `data` (at `path`, when given) on the fast path, or says why not.
    ///
    /// The fast path parses the text once and decodes through ``FastDecoder``; it returns a
    /// value only when nothing on the way deferred (see ``FastDeferral``), so that the value
    /// is the one the `JSONDecoder` path returns. What the lenient helpers record in the
    /// ``DecodingReport`` reaches the caller's report only when the fast path succeeds.
    func decodeOnFastPath<T: Decodable>(
        _ type: T.Type, from data: Data, at path: PathExpression? = nil
    ) -> Result<T, FastDeferral> {
        Result { () throws(FastDeferral) in try fastDecode(type, from: data, at: path) }
    }

    /// ``decodeOnFastPath(_:from:at:)`` as a throwing function: generic code that returns a
    /// `Result<T, FastDeferral>` looks its metadata up on every call, a typed throw does not.
    func fastDecode<T: Decodable>(
        _ type: T.Type, from data: Data, at path: PathExpression? = nil
    ) throws(FastDeferral) -> T {
        guard case .useDefaultKeys = keyDecodingStrategy else { throw FastDeferral(reason: .settings) }
        if isStrict {
            do { try JSONValidator.validate(data) } catch { throw FastDeferral(reason: .notStrictJSON) }
        }
        let datesAreDeferred: Bool
        if case .deferredToDate = dateDecodingStrategy { datesAreDeferred = true } else { datesAreDeferred = false }
        guard let report = ReportCollector.current else {
            return try Self.fastDecode(type, from: data, at: path, datesAreDeferred: datesAreDeferred)
        }
        // Entries are kept apart until the fast path succeeds: when it defers, the other path
        // records them again.
        let attempt = ReportCollector()
        let result = ReportCollector.$current.withValue(attempt) {
            Result { () throws(FastDeferral) in
                try Self.fastDecode(type, from: data, at: path, datesAreDeferred: datesAreDeferred)
            }
        }
        let value = try result.get()
        report.append(contentsOf: attempt)
        return value
    }

    private static func fastDecode<T: Decodable>(
        _ type: T.Type, from data: Data, at path: PathExpression?, datesAreDeferred: Bool
    ) throws(FastDeferral) -> T {
        let bytes = [UInt8](unsafeUninitializedCapacity: data.count) { buffer, count in
            count = data.copyBytes(to: buffer)
        }
        let parsed = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(FastDeferral) in try JSONParser.parse(buffer) }
        }
        let nodes = try parsed.get()
        var userInfo: [CodingUserInfoKey: Any] = [:]
        if let path, let key = ValueAtPathOptions.pathKey { userInfo[key] = path }
        let session = FastDecodingSession(
            bytes: bytes, nodes: nodes, userInfo: userInfo, datesAreDeferred: datesAreDeferred)
        let value: T
        do {
            if let path {
                value = try session.decode(type, at: path)
            } else {
                value = try session.decodeValue(type, at: 0, parent: nil, component: nil)
            }
        } catch {
            throw session.deferral ?? FastDeferral(reason: .decodingError)
        }
        if let deferral = session.deferral { throw deferral }
        return value
    }
}

extension FastDecodingSession {
    /// Decodes `type` at `path` from the top of the text, as ``PathDecoder/decode(_:from:at:)``
    /// does through `JSONDecoder`: an optional `type` gives nil where the path leads nowhere.
    func decode<T: Decodable>(_ type: T.Type, at path: PathExpression) throws -> T {
        if let optional = T.self as? any FastOptionalAtPath.Type {
            guard let value = try optional.decodeWrapped(at: path, in: self) as? T else { throw fail(.decodingError) }
            return value
        }
        guard let value = try decodeIfFound(type, at: path, required: true) else { throw fail(.decodingError) }
        return value
    }

    /// The value at `path` from the top of the text; nil when it is absent and not `required`.
    func decodeIfFound<T: Decodable>(_ type: T.Type, at path: PathExpression, required: Bool) throws -> T? {
        let top = nodes[0]
        switch top.kind {
        case .null:
            if required { throw fail(.decodingError) }
            return nil
        case .object, .array:
            switch try resolve(path, from: 0, location: nil, required: required) {
            case .found(let index, let location):
                if nodes[index].kind == .null && !required { return nil }
                return try decodeValue(type, at: index, parent: location, component: nil)
            case .absent: return nil
            case .mismatch: throw fail(.decodingError)
            }
        default:
            throw fail(.decodingError)
        }
    }
}

/// Optionals decoded at a path on the fast path: nil when the path leads nowhere.
protocol FastOptionalAtPath {
    /// The wrapped value at `path`, or nil, as `Any`.
    static func decodeWrapped(at path: PathExpression, in session: FastDecodingSession) throws -> Any
}

extension Optional: FastOptionalAtPath where Wrapped: Decodable {
    static func decodeWrapped(at path: PathExpression, in session: FastDecodingSession) throws -> Any {
        let value: Wrapped? = try session.decodeIfFound(Wrapped.self, at: path, required: false)
        return value as Any
    }
}
