public import Foundation

// CONTRACT STUB (issue 2): FetchKit codes against these signatures. The Decoding work
// replaces the bodies and adds everything else, but keeps these names and shapes.

/// Decodes JSON into `Decodable` types whose `CodingKeys` may name nested paths.
///
/// Placeholder implementation: plain `JSONDecoder`, no path interpretation yet.
public struct PathDecoder: Sendable {
    /// Creates a decoder with default settings.
    public init() {}

    /// Decodes a value of `type` from JSON `data`.
    ///
    /// - Parameters:
    ///   - type: the type to decode.
    ///   - data: UTF-8 JSON.
    /// - Returns: the decoded value.
    /// - Throws: ``DecodingFailure`` when the data is not JSON or does not fit `type`.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws(DecodingFailure) -> T {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch let error as DecodingError {
            throw DecodingFailure(error)
        } catch {
            throw DecodingFailure(path: "", message: "\(error)", underlying: nil)
        }
    }

    /// Decodes a value of `type` found at `path` inside JSON `data`, for example
    /// `"results.first"` or `"photos.photo"`.
    ///
    /// - Parameters:
    ///   - type: the type to decode.
    ///   - data: UTF-8 JSON.
    ///   - path: where the value is, in the path syntax of ``PathDecoder``.
    /// - Returns: the decoded value.
    /// - Throws: ``DecodingFailure`` when the path is missing or the value does not fit `type`.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data, at path: String) throws(DecodingFailure)
        -> T
    {
        throw DecodingFailure(path: path, message: "paths are not implemented yet", underlying: nil)
    }
}

/// A decoding error that describes itself in one line, such as
/// `items[3].volumeInfo.title: expected String, found null`.
public struct DecodingFailure: Error, Sendable, CustomStringConvertible {
    /// The readable path of the failing value, such as `items[3].volumeInfo.title` (empty for the root).
    public var path: String
    /// What went wrong at `path`, such as `expected String, found null`.
    public var message: String
    /// The `DecodingError` behind this failure, when there is one.
    public var underlying: DecodingError?

    /// Creates a failure from its parts.
    ///
    /// - Parameters:
    ///   - path: the readable path of the failing value.
    ///   - message: what went wrong there.
    ///   - underlying: the `DecodingError` behind it, if any.
    public init(path: String, message: String, underlying: DecodingError?) {
        self.path = path
        self.message = message
        self.underlying = underlying
    }

    /// Creates a failure that describes a `DecodingError`.
    ///
    /// - Parameter error: the error to describe.
    public init(_ error: DecodingError) {
        self.init(path: "", message: "\(error)", underlying: error)
    }

    /// The one-line description: `path: message`, or just `message` at the root.
    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}
