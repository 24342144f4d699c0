public import Foundation
import Locking

/// Decodes JSON into `Decodable` types whose `CodingKeys` may name nested paths.
///
/// A type declares where each property lives, keeps the compiler's own `init(from:)`, and
/// `PathDecoder` reads the paths:
///
/// ```swift
/// struct Book: Decodable {
///     enum CodingKeys: String, CodingKey {
///         case title = "volumeInfo.title"
///         case isbn13 = "volumeInfo.industryIdentifiers[type=ISBN_13].identifier"
///         case thumbnail = "volumeInfo.imageLinks.smallThumbnail"
///     }
///     var title: String
///     var isbn13: String?
///     var thumbnail: URL?
/// }
///
/// let books = try PathDecoder().decode([Book].self, from: data, at: "items")
/// ```
///
/// Paths work at any depth: nested types, arrays and dictionaries of them may use paths in
/// their own keys, and types without paths decode to the values `JSONDecoder` gives. See
/// <doc:NestedKeysAndLenientDecoding> for the path syntax.
///
/// `PathDecoder` parses the JSON once itself and reads the paths on what it parsed. A request
/// that does not fit the data throws the `DecodingError` `JSONDecoder` throws (the same case,
/// coding path and message), so a type that catches it (`try?`, the lenient helpers) goes on at
/// no extra cost, and an error nothing catches is reported as `JSONDecoder` leads to it. Only
/// when it is not sure to give the value or the error `JSONDecoder` gives (a number it does not
/// convert as Foundation does, a duplicate key, a lone surrogate, `Data`, `Decimal`, a key
/// decoding strategy, a key path that does not resolve) does it decode the data again from the
/// start through `JSONDecoder`; such a decoding costs both, and a type's `init(from:)` may run
/// twice for it. A keyed container's `allKeys` come in the document's order.
///
/// Foundation's decoder stops the process on a few numbers read as 64-bit integers (an integral
/// value from 2^53 up to 2^64, not written in digits alone, whose `Decimal` form overflows, such
/// as `0.<130 zeros>9007199254740993e146`). `PathDecoder` refuses such a number as one that does
/// not fit, and, when it would decode the data through `JSONDecoder`, refuses a document that
/// holds one anywhere (``DecodingFailure/Code/invalidValue``, naming the number), since which type
/// will read it is not known before.
///
/// `PathDecoder` is a value; it is safe to share one between threads.
public struct PathDecoder: Sendable {
    /// How dates are decoded; the default reads seconds since 2001, as `JSONDecoder` does.
    public var dateDecodingStrategy: JSONDecoder.DateDecodingStrategy = .deferredToDate
    /// How `Data` values are decoded; the default reads Base64.
    public var dataDecodingStrategy: JSONDecoder.DataDecodingStrategy = .base64
    /// How JSON keys are mapped before lookup, for example `.convertFromSnakeCase`.
    public var keyDecodingStrategy: JSONDecoder.KeyDecodingStrategy = .useDefaultKeys
    /// How `NaN` and infinities spelled as strings are decoded; the default rejects them.
    public var nonConformingFloatDecodingStrategy: JSONDecoder.NonConformingFloatDecodingStrategy = .throw
    /// Whether data must be strict RFC 8259 JSON before it is decoded.
    ///
    /// Foundation's parser accepts a few inputs the RFC rejects (trailing commas such as
    /// `[1,]` and `{"a":1,}`); in strict mode they throw ``DecodingFailure/Code/invalidJSON``.
    /// Strict mode checks the whole input once more before decoding, which costs time.
    public var isStrict = false
    /// Values a type's `init(from:)` reads from its decoder's `userInfo`, as `JSONDecoder`'s
    /// `userInfo`: the names a generic type reads its fields by, for one.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]
    /// Which way to decode; tests set `.foundationOnly` to compare the two ways.
    var route = DecodingRoute.automatic

    /// Creates a decoder with default settings.
    public init() {}

    /// Creates a decoder and configures it.
    ///
    /// For example:
    ///
    /// ```swift
    /// let decoder = PathDecoder { $0.keyDecodingStrategy = .convertFromSnakeCase }
    /// ```
    ///
    /// - Parameter configure: changes the settings of the new decoder.
    public init(_ configure: (inout PathDecoder) -> Void) {
        configure(&self)
    }

    /// Decodes a value of `type` from JSON `data`.
    ///
    /// - Parameters:
    ///   - type: the type to decode.
    ///   - data: UTF-8 JSON.
    /// - Returns: the decoded value.
    /// - Throws: ``DecodingFailure`` when the data is not JSON or does not fit `type` (or holds a
    ///   number Foundation's decoder stops on, see ``PathDecoder``).
    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws(DecodingFailure) -> T {
        if route == .automatic {
            // A deferral means only that the `JSONDecoder` path decodes it (no `try?`: an
            // optional of a generic type looks its metadata up on every call).
            do { return try fastDecode(type, from: data) } catch { try takeSecondRoute(after: error, data) }
        }
        return try run(data) { decoder in
            guard isDirectlyDecodable(T.self) else { return try decoder.decode(DecodingBox<T>.self, from: data).value }
            do {
                return try decoder.decode(type, from: data)
            } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
                // Foundation reports a number that does not fit (`1.5` as `Int`) as invalid JSON;
                // decoded again through the path-aware containers, the error names the number.
                return try decoder.decode(DecodingBox<T>.self, from: data).value
            }
        }
    }

    /// Decodes a value of `type` found at `path` inside JSON `data`, for example
    /// `"results.first"` or `"photos.photo"`.
    ///
    /// When `type` is an `Optional`, a value that is missing or null, or whose path runs
    /// through a missing or null object, an empty array or an unmatched filter, decodes as nil.
    ///
    /// - Parameters:
    ///   - type: the type to decode.
    ///   - data: UTF-8 JSON.
    ///   - path: where the value is, in the path syntax of ``PathDecoder``.
    /// - Returns: the decoded value.
    /// - Throws: ``DecodingFailure`` when the path is missing or the value does not fit `type` (or
    ///   the data holds a number Foundation's decoder stops on, see ``PathDecoder``).
    public func decode<T: Decodable>(
        _ type: T.Type, from data: Data, at path: String
    ) throws(DecodingFailure)
        -> T
    {
        let expression: PathExpression
        switch PathCache.shared.expression(for: path) {
        case .success(let parsed): expression = parsed
        case .failure(let error):
            throw DecodingFailure(path: "", message: error.description, underlying: nil, code: .invalidPath)
        }
        if route == .automatic {
            do { return try fastDecode(type, from: data, at: expression) } catch {
                try takeSecondRoute(after: error, data)
            }
        }
        return try run(data, path: expression) { decoder in
            try decoder.decode(ValueAtPath<T>.self, from: data).value
        }
    }

    /// Decodes a value of `type` and reports what lenient helpers skipped, defaulted or converted.
    ///
    /// - Parameters:
    ///   - type: the type to decode.
    ///   - data: UTF-8 JSON.
    /// - Returns: the decoded value and the ``DecodingReport``.
    /// - Throws: ``DecodingFailure`` when the data is not JSON or does not fit `type` (or holds a
    ///   number Foundation's decoder stops on, see ``PathDecoder``).
    public func decodeWithReport<T: Decodable>(
        _ type: T.Type, from data: Data
    ) throws(DecodingFailure) -> (
        value: T, report: DecodingReport
    ) {
        let collector = ReportCollector()
        let value = try collecting(into: collector) { () throws(DecodingFailure) in try decode(type, from: data) }
        return (value, collector.report)
    }

    /// Decodes a value of `type` at `path` and reports what lenient helpers skipped, defaulted or converted.
    ///
    /// - Parameters:
    ///   - type: the type to decode.
    ///   - data: UTF-8 JSON.
    ///   - path: where the value is, in the path syntax of ``PathDecoder``.
    /// - Returns: the decoded value and the ``DecodingReport``.
    /// - Throws: ``DecodingFailure`` when the path is missing or the value does not fit `type` (or
    ///   the data holds a number Foundation's decoder stops on, see ``PathDecoder``).
    public func decodeWithReport<T: Decodable>(
        _ type: T.Type, from data: Data, at path: String
    )
        throws(DecodingFailure) -> (value: T, report: DecodingReport)
    {
        let collector = ReportCollector()
        let value = try collecting(into: collector) { () throws(DecodingFailure) in
            try decode(type, from: data, at: path)
        }
        return (value, collector.report)
    }

    // MARK: Running

    private func collecting<T>(
        into collector: ReportCollector, _ body: () throws(DecodingFailure) -> T
    ) throws(DecodingFailure) -> T {
        let result: Result<T, DecodingFailure> = ReportCollector.$current.withValue(collector) {
            do throws(DecodingFailure) { return .success(try body()) } catch { return .failure(error) }
        }
        return try result.get()
    }

    private func makeJSONDecoder(path: PathExpression?) -> JSONDecoder {
        let decoder = JSONDecoder()
        // Set only when not the default: each of `JSONDecoder`'s setters takes its options lock.
        switch dateDecodingStrategy {
        case .deferredToDate: break
        default: decoder.dateDecodingStrategy = dateDecodingStrategy
        }
        switch dataDecodingStrategy {
        case .base64: break
        default: decoder.dataDecodingStrategy = dataDecodingStrategy
        }
        switch keyDecodingStrategy {
        case .useDefaultKeys: break
        default: decoder.keyDecodingStrategy = keyDecodingStrategy
        }
        switch nonConformingFloatDecodingStrategy {
        case .throw: break
        default: decoder.nonConformingFloatDecodingStrategy = nonConformingFloatDecodingStrategy
        }
        if !userInfo.isEmpty { decoder.userInfo = userInfo }
        if let path, let key = ValueAtPathOptions.pathKey { decoder.userInfo[key] = path }
        return decoder
    }

    private func run<T>(
        _ data: Data, path: PathExpression? = nil, _ body: (JSONDecoder) throws -> T
    )
        throws(DecodingFailure) -> T
    {
        if isStrict {
            do {
                try JSONValidator.validate(data)
            } catch {
                throw Self.failure(for: error, underlying: nil)
            }
        }
        do {
            return try body(makeJSONDecoder(path: path))
        } catch {
            throw failure(forThrown: error, data: data)
        }
    }

    /// `text`, cut to its first and last 20 characters when longer than 48.
    private static func shortened(_ text: String) -> String {
        guard text.count > 48 else { return text }
        return "\(text.prefix(20))…\(text.suffix(20))"
    }

    /// Throws the failure the fast path ended with; returns when it deferred, so that the
    /// caller decodes `data` through `JSONDecoder`, and counts that second route.
    ///
    /// A number on which Foundation's decoder stops the process when it reads it as a 64-bit
    /// integer (the fast path refuses it as a number that does not fit) is refused before the
    /// second route: which type will read it is not known yet, so the document is refused.
    private func takeSecondRoute(after stop: FastPathStop, _ data: Data) throws(DecodingFailure) {
        switch stop {
        case .failed(let failure): throw failure
        case .deferred(let deferral): SecondRouteCounter.current?.record(deferral.reason)
        }
        // Read as `JSONDecoder` reads it: UTF-16 and UTF-32 converted to UTF-8 first.
        let text = JSONEncodingForm.utf8(of: data) ?? data
        let unreadable = text.withUnsafeBytes { raw in
            FoundationNumberRules.firstNumberFoundationStopsOn(in: raw.bindMemory(to: UInt8.self))
        }
        if let unreadable {
            throw DecodingFailure(
                path: "",
                message: "the number \(Self.shortened(unreadable)) cannot be read by JSONDecoder, which this "
                    + "document needs (the fast path deferred it): its Decimal form overflows. Write the number "
                    + "with fewer digits or a smaller exponent",
                underlying: nil, code: .invalidValue)
        }
    }

    /// The failure for an error a decoding threw (on either route): a `DecodingError`
    /// described, a ``DecodingFailure`` as it is, any other error by its description.
    func failure(forThrown error: any Error, data: Data) -> DecodingFailure {
        switch error {
        case let error as DecodingError: return failure(for: error, data: data)
        case let error as DecodingFailure: return error
        default: return DecodingFailure(path: "", message: "\(error)", underlying: nil, code: .invalidValue)
        }
    }

    /// The failure for `error`; when Foundation rejects the JSON itself, the strict checker
    /// finds the line and column.
    private func failure(for error: DecodingError, data: Data) -> DecodingFailure {
        let failure = DecodingFailure(error)
        guard case .dataCorrupted(let context) = error, context.codingPath.isEmpty,
            DecodingFailure.isSyntaxError(context)
        else { return failure }
        do {
            try JSONValidator.validate(data)
        } catch let syntaxError {
            return Self.failure(for: syntaxError, underlying: error)
        }
        // The text is valid RFC 8259 JSON, yet Foundation refused it. Numbers that do not fit
        // are named where they are read, so this is a value Foundation cannot represent at all.
        return DecodingFailure(
            path: failure.path,
            message:
                "the JSON is valid but Foundation's parser rejected it, as it does for numbers it cannot "
                + "represent (an integer beyond 64 bits, 1e999, or 0e1 read as Double)",
            underlying: error, code: .invalidValue)
    }

    /// The failure for data the strict checker rejects: nested too deep, or not JSON.
    private static func failure(for error: JSONSyntaxError, underlying: DecodingError?) -> DecodingFailure {
        if let path = error.depthPath {
            return DecodingFailure(
                path: path, message: JSONValidator.depthMessage, underlying: underlying, code: .invalidValue)
        }
        return DecodingFailure(path: "", message: error.description, underlying: underlying, code: .invalidJSON)
    }
}

/// Counts the decodings that take the second route (the fast path deferred, and the data is
/// decoded again through `JSONDecoder`) on the task that sets it; tests read it.
final class SecondRouteCounter: Sendable {
    @TaskLocal static var current: SecondRouteCounter?

    private let reasons = Locked([FastDeferral.Reason]())

    /// Notes one second route, and the reason the fast path gave up.
    func record(_ reason: FastDeferral.Reason) {
        reasons.withLock { $0.append(reason) }
    }

    /// The reasons of the second routes taken so far, in order.
    var recorded: [FastDeferral.Reason] { reasons.current }
}

/// Keys of `userInfo` for decoding at a path.
enum ValueAtPathOptions {
    /// The key under which ``PathDecoder/decode(_:from:at:)`` passes the parsed path (never nil in practice).
    static let pathKey = CodingUserInfoKey(rawValue: "Decoding.PathDecoder.path")
}

/// Decodes the value at the path in `userInfo` from the root of the data.
private struct ValueAtPath<Value: Decodable>: Decodable {
    let value: Value

    init(from decoder: any Decoder) throws {
        guard let key = ValueAtPathOptions.pathKey, let path = decoder.userInfo[key] as? PathExpression else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "no path given"))
        }
        if let optional = Value.self as? any OptionalAtPath.Type {
            guard let value = try optional.decodeIfPresent(at: path, from: decoder) as? Value else {
                throw DecodingError.typeMismatch(Value.self, .init(codingPath: [], debugDescription: "optional"))
            }
            self.value = value
            return
        }
        guard let value = try PathNavigator.decode(Value.self, at: path, from: decoder, required: true) else {
            throw DecodingError.valueNotFound(Value.self, .init(codingPath: [], debugDescription: "no value"))
        }
        self.value = value
    }
}

/// Optionals decoded at a path: nil when the path leads nowhere.
private protocol OptionalAtPath {
    static func decodeIfPresent(at path: PathExpression, from decoder: any Decoder) throws -> Any
}

extension Optional: OptionalAtPath where Wrapped: Decodable {
    fileprivate static func decodeIfPresent(at path: PathExpression, from decoder: any Decoder) throws -> Any {
        let value: Wrapped? = try PathNavigator.decode(Wrapped.self, at: path, from: decoder, required: false)
        return value as Any
    }
}
