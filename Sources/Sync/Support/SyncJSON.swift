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
    /// A record's identity as JSON: text, UUIDs and integers written directly, as `JSONEncoder`
    /// writes them (text through ``FlatJSONWriter/appendString(_:to:)``, the one string escaper of
    /// the module), any other type by `JSONEncoder`. Every local write stores one, so the common
    /// identities skip an encoder.
    static func encodeIdentity<ID: Encodable>(_ identity: ID) throws -> Data {
        switch identity {
        case let text as String: return quoted(text)
        case let uuid as UUID: return quoted(uuid.uuidString)
        case let number as Int: return Data(String(number).utf8)
        case let number as Int64: return Data(String(number).utf8)
        default: return try JSONEncoder().encode(identity)
        }
    }

    /// `text` as a JSON string.
    private static func quoted(_ text: String) -> Data {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 2)
        FlatJSONWriter.appendString(text, to: &bytes)
        return Data(bytes)
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
