import Foundation

extension PathDecoder {
    /// Decodes `type` from `data` (at `path`, when given) on the fast path, or throws why not.
    ///
    /// The fast path parses the text once and decodes through ``FastDecoder``; it returns a
    /// value only when nothing on the way deferred (see ``FastDeferral``), so that the value
    /// is the one the `JSONDecoder` path returns. What the lenient helpers record in the
    /// ``DecodingReport`` reaches the caller's report only when the fast path succeeds. (A
    /// typed throw, not a `Result<T, FastDeferral>`, whose metadata generic code would look up
    /// on every call.)
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
