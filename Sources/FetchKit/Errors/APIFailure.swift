public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// A failure an API reports inside a response whose HTTP status is acceptable, such as
/// Flickr's `{"stat":"fail","code":100,"message":"Invalid API Key"}` sent with status 200.
///
/// A client finds these with its ``FetchClient/Configuration-swift.struct/apiFailureDetector``;
/// see ``APIFailure/jsonField(_:equals:code:message:)`` for the common shape.
public struct APIFailure: Sendable, Hashable, CustomStringConvertible {
    /// The API's own error code, such as `"100"`, when it gave one.
    public var code: String?
    /// The API's message, such as `"Invalid API Key (Key has invalid format)"`.
    public var message: String

    /// Creates a failure.
    ///
    /// - Parameters:
    ///   - code: the API's error code, if any.
    ///   - message: the API's message.
    public init(code: String?, message: String) {
        self.code = code
        self.message = message
    }

    /// `code 100: Invalid API Key`, or just the message when there is no code.
    public var description: String {
        code.map { "code \($0): \(message)" } ?? message
    }

    /// A detector for APIs that mark failures with a field of a top-level JSON object.
    ///
    /// For Flickr:
    ///
    /// ```swift
    /// configuration.apiFailureDetector = APIFailure.jsonField("stat", equals: "fail", code: "code", message: "message")
    /// ```
    ///
    /// - Parameters:
    ///   - field: the field that marks the outcome, such as `"stat"`.
    ///   - value: the field's value on failure, such as `"fail"` (numbers and booleans compare by their text).
    ///   - code: the field that holds the API's error code.
    ///   - message: the field that holds the API's message.
    /// - Returns: a detector that returns an ``APIFailure`` for bodies that match, and `nil` otherwise.
    public static func jsonField(
        _ field: String, equals value: String, code: String, message: String
    )
        -> @Sendable (Data, HTTPURLResponse) -> APIFailure?
    {
        { data, _ in
            guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                let marker = object[field], text(of: marker) == value
            else { return nil }
            return APIFailure(
                code: object[code].flatMap(text(of:)),
                message: object[message].flatMap(text(of:)) ?? "\(field) is \(value)")
        }
    }

    private static func text(of value: Any) -> String? {
        switch value {
        case let string as String: return string
        case let number as NSNumber: return number.stringValue
        default: return nil
        }
    }
}
