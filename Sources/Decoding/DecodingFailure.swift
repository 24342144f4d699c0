import Foundation
import Locking

/// A decoding error that describes itself in one line, such as
/// `items[3].volumeInfo.title: expected String, found null`.
///
/// Every error that ``PathDecoder`` throws is a `DecodingFailure`. Its ``path`` says where,
/// its ``message`` says what, its ``code`` lets code tell the cases apart, and ``underlying``
/// keeps Foundation's `DecodingError` for code that wants its context.
///
/// ```swift
/// do {
///     let book = try PathDecoder().decode(Book.self, from: data)
/// } catch DecodingFailure.Code.nullValue {
///     // a required value is null
/// } catch {
///     print(error)  // items[3].volumeInfo.title: expected String, found null
/// }
/// ```
public struct DecodingFailure: Error, Sendable, CustomStringConvertible {
    /// The kind of a ``DecodingFailure``. New codes may be added without breaking callers.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case invalidJSON, missingValue, nullValue, typeMismatch, invalidValue, invalidPath
        }

        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// The data is not JSON (malformed, truncated, empty, or not UTF-8).
        public static let invalidJSON = Code(.invalidJSON)
        /// A required value, or an object on its path, is missing.
        public static let missingValue = Code(.missingValue)
        /// A required value is null.
        public static let nullValue = Code(.nullValue)
        /// A value has another type than the one asked for.
        public static let typeMismatch = Code(.typeMismatch)
        /// A value has the right type but a content that cannot be used: a bad date or URL, a
        /// number that does not fit its type (`1.5` as `Int`), or data nested too deep.
        public static let invalidValue = Code(.invalidValue)
        /// A coding key or path has invalid path syntax.
        public static let invalidPath = Code(.invalidPath)

        /// The code's name, such as `typeMismatch`.
        public var description: String { base.rawValue }

        /// Whether `value` is a ``DecodingFailure`` with this code, so a `catch` or `case` names
        /// the kind of failure: `catch DecodingFailure.Code.typeMismatch`.
        ///
        /// - Parameters:
        ///   - pattern: the code to match, such as ``typeMismatch``.
        ///   - value: any error.
        /// - Returns: `true` when `value` is a ``DecodingFailure`` whose ``DecodingFailure/code`` is `pattern`.
        public static func ~= (pattern: Code, value: any Error) -> Bool {
            (value as? DecodingFailure)?.code == pattern
        }
    }

    /// What kind of failure this is.
    public let code: Code
    /// The readable path of the failing value, such as `items[3].volumeInfo.title` (empty for the root).
    public let path: String
    /// What went wrong at `path`, such as `expected String, found null`.
    public let message: String
    /// The `DecodingError` behind this failure, when there is one.
    public let underlying: DecodingError?

    /// Creates a failure from its parts, with its code.
    ///
    /// - Parameters:
    ///   - path: the readable path of the failing value.
    ///   - message: what went wrong there.
    ///   - underlying: the `DecodingError` behind it, if any.
    ///   - code: what kind of failure it is.
    public init(path: String, message: String, underlying: DecodingError?, code: Code) {
        self.path = path
        self.message = message
        self.underlying = underlying
        self.code = code
    }

    /// Creates a failure from its parts; its code follows from `underlying`.
    ///
    /// - Parameters:
    ///   - path: the readable path of the failing value.
    ///   - message: what went wrong there.
    ///   - underlying: the `DecodingError` behind it, if any; without one the code is
    ///     ``Code/invalidValue``.
    public init(path: String, message: String, underlying: DecodingError?) {
        self.init(
            path: path, message: message, underlying: underlying, code: underlying.map(Self.code(of:)) ?? .invalidValue)
    }

    /// Creates a failure that describes a `DecodingError` in one line.
    ///
    /// - Parameter error: the error to describe.
    public init(_ error: DecodingError) {
        let (path, message) = Self.describe(error)
        self.init(path: path, message: message, underlying: error, code: Self.code(of: error))
    }

    /// The one-line description: `path: message`, or just `message` at the root.
    public var description: String { (path.isEmpty ? message : "\(path): \(message)").oneLine }

    /// The same failure with another message, such as one scrubbed of secrets.
    ///
    /// - Parameter message: the new message.
    /// - Returns: a failure with this one's code, path and underlying error.
    package func replacingMessage(_ message: String) -> DecodingFailure {
        DecodingFailure(path: path, message: message, underlying: underlying, code: code)
    }

    // MARK: Describing DecodingError

    private static func code(of error: DecodingError) -> Code {
        switch error {
        case .keyNotFound: return .missingValue
        case .valueNotFound(_, let context):
            return context.debugDescription.contains("null") ? .nullValue : .missingValue
        case .typeMismatch: return .typeMismatch
        case .dataCorrupted(let context):
            if context.debugDescription.hasPrefix("invalid path") { return .invalidPath }
            return context.codingPath.isEmpty && isSyntaxError(context) ? .invalidJSON : .invalidValue
        @unknown default: return .invalidValue
        }
    }

    static func isSyntaxError(_ context: DecodingError.Context) -> Bool {
        let text = context.debugDescription
        return text.contains("not valid JSON") || text.hasPrefix("invalid JSON") || text.contains("Unexpected")
            || context.underlyingError != nil
    }

    private static func describe(_ error: DecodingError) -> (path: String, message: String) {
        switch error {
        case .keyNotFound(let key, let context):
            let path = CodingPathFormatter.string(context.codingPath + [key])
            let text = context.debugDescription
            if text.hasPrefix(PathNavigator.missingPrefix) { return (path, text) }
            if text.hasPrefix("No value associated with key") || text.isEmpty {
                return (path, "required value is missing")
            }
            return (path, "required value is missing: \(text)")
        case .valueNotFound(let type, let context):
            let path = CodingPathFormatter.string(context.codingPath)
            if context.debugDescription.contains("null") { return (path, "expected \(typeName(type)), found null") }
            if context.debugDescription.contains("at end") {
                return (path, "expected \(typeName(type)), but the array has no more elements")
            }
            return (path, "expected \(typeName(type)), found nothing")
        case .typeMismatch(let type, let context):
            let path = CodingPathFormatter.string(context.codingPath)
            return (path, "expected \(typeName(type)), found \(foundKind(in: context.debugDescription))")
        case .dataCorrupted(let context):
            let path = CodingPathFormatter.string(context.codingPath)
            var message = context.debugDescription
            if let underlying = context.underlyingError {
                let detail = (underlying as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
                if let detail, !message.contains(detail) { message += " (\(detail))" }
            }
            return (path, message)
        @unknown default:
            return ("", "\(error)")
        }
    }

    /// `String`, `Int`, `object` or `array` for a type in a `DecodingError`.
    static func typeName(_ type: Any.Type) -> String {
        if let name = standardTypeNames[ObjectIdentifier(type)] { return name }
        let name = String(describing: type)
        if name.hasPrefix("Dictionary<") { return "object" }
        if name.hasPrefix("Array<") { return "array" }
        if name.hasPrefix("DecodingBox<") { return String(name.dropFirst("DecodingBox<".count).dropLast()) }
        return name
    }

    /// The names of the scalar types, looked up without `String(describing:)`, which reflects
    /// on the type (thousands of instructions; an any-JSON enum's failed probes spell one per
    /// number).
    private static let standardTypeNames: [ObjectIdentifier: String] = {
        let types: [Any.Type] = [
            Int.self, Int8.self, Int16.self, Int32.self, Int64.self, UInt.self, UInt8.self, UInt16.self, UInt32.self,
            UInt64.self, Double.self, Float.self, Bool.self, String.self,
        ]
        return Dictionary(uniqueKeysWithValues: types.map { (ObjectIdentifier($0), String(describing: $0)) })
    }()

    /// `number`, `string`, `array`, `object`, `bool` out of Foundation's
    /// "Expected to decode X but found Y instead." text.
    private static func foundKind(in text: String) -> String {
        guard let range = text.range(of: "but found ") else { return "another type (\(text))" }
        var found = text[range.upperBound...]
        if let end = found.range(of: " instead") { found = found[..<end.lowerBound] }
        var kind = String(found)
        for article in ["a ", "an "] where kind.hasPrefix(article) { kind = String(kind.dropFirst(article.count)) }
        switch kind {
        case "dictionary": kind = "object"
        case "null value": kind = "null"
        default: break
        }
        if let detail = text.range(of: ". (") {
            kind += " " + text[detail.upperBound...].dropLast().description.surroundedByParentheses
        }
        return kind
    }
}

extension String {
    fileprivate var surroundedByParentheses: String { "(\(self))" }
}
