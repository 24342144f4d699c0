import Decoding
import FetchKit
import Foundation

/// The module's JSON reading: outbox payloads, identities and the server's answers are read with
/// ``PathDecoder``, which gives the values and errors `JSONDecoder` gives, at a third of the cost
/// for bodies of this size.
enum SyncJSON {
    /// Decodes `type` from `data`.
    static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try PathDecoder().decode(type, from: data)
    }
}

extension SyncJSON {
    /// The coding path of the value a decoding failed at (`items[3].title`), when the error says.
    static func failedProperty(_ error: any Error) -> String? {
        guard let path = failure(error)?.path, !path.isEmpty else { return nil }
        return path
    }

    /// A decoding error as a ``DecodingFailure``, or `nil` for another error.
    static func failure(_ error: any Error) -> DecodingFailure? {
        if let failure = error as? DecodingFailure { return failure }
        if let error = error as? FetchError { return error.decodingFailure }
        if let error = error as? DecodingError { return DecodingFailure(error) }
        return nil
    }

    /// A decoding error in one line (`items[3].title: expected String, found number`), any
    /// other error as it describes itself.
    static func describe(_ error: any Error) -> String {
        failure(error)?.description ?? String(describing: error)
    }
}

extension SyncJSON {
    /// The default reading of a write's answer: `nil` for an empty body, the body as `T` when it
    /// is one, `nil` for other JSON (an answer without the record), and the parse error for a
    /// body that is not JSON at all.
    static func record<T: Decodable>(_ type: T.Type, from data: Data) throws -> T? {
        if data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return nil }
        do {
            return try decode(type, from: data)
        } catch {
            if failure(error)?.code == .invalidJSON { throw error }
            return nil
        }
    }
}
