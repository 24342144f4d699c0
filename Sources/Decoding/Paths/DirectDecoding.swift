import Foundation

// Foundation's containers have fast concrete entry points for `String`, `Int`, `Double` and
// `Bool`; the generic `decode<T>` takes a slower road through `T.init(from:)`. These helpers
// pick the concrete entry point when the generic type is one of those, so that forwarding
// through the path-aware containers costs no more than a direct call.

extension KeyedDecodingContainer {
    /// Decodes a leaf value through the concrete overload when there is one.
    @inline(__always)
    func decodeLeaf<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        do { return try decodeLeafUnchecked(type, forKey: key) } catch {
            throw NumberFit.named(error, T.self, at: codingPath + [key])
        }
    }

    /// Decodes an optional leaf value through the concrete overload when there is one.
    @inline(__always)
    func decodeLeafIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        do { return try decodeLeafIfPresentUnchecked(type, forKey: key) } catch {
            throw NumberFit.named(error, T.self, at: codingPath + [key])
        }
    }

    @inline(__always)
    private func decodeLeafUnchecked<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        // Each `unsafeBitCast` below runs only when `T` is exactly the type it casts from.
        if T.self == String.self { return unsafeBitCast(try decode(String.self, forKey: key), to: T.self) }
        if T.self == Int.self { return unsafeBitCast(try decode(Int.self, forKey: key), to: T.self) }
        if T.self == Double.self { return unsafeBitCast(try decode(Double.self, forKey: key), to: T.self) }
        if T.self == Bool.self { return unsafeBitCast(try decode(Bool.self, forKey: key), to: T.self) }
        return try decode(type, forKey: key)
    }

    @inline(__always)
    private func decodeLeafIfPresentUnchecked<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        if T.self == String.self {
            return unsafeBitCast(try decodeIfPresent(String.self, forKey: key), to: T?.self)
        }
        if T.self == Int.self { return unsafeBitCast(try decodeIfPresent(Int.self, forKey: key), to: T?.self) }
        if T.self == Double.self {
            return unsafeBitCast(try decodeIfPresent(Double.self, forKey: key), to: T?.self)
        }
        if T.self == Bool.self { return unsafeBitCast(try decodeIfPresent(Bool.self, forKey: key), to: T?.self) }
        return try decodeIfPresent(type, forKey: key)
    }
}

extension UnkeyedDecodingContainer {
    /// Decodes a leaf element through the concrete overload when there is one.
    @inline(__always)
    mutating func decodeLeaf<T: Decodable>(_ type: T.Type) throws -> T {
        do { return try decodeLeafUnchecked(type) } catch {
            throw NumberFit.named(error, T.self, at: codingPath + [AnyCodingKey(intValue: currentIndex)])
        }
    }

    /// Decodes an optional leaf element through the concrete overload when there is one.
    @inline(__always)
    mutating func decodeLeafIfPresent<T: Decodable>(_ type: T.Type) throws -> T? {
        do { return try decodeLeafIfPresentUnchecked(type) } catch {
            throw NumberFit.named(error, T.self, at: codingPath + [AnyCodingKey(intValue: currentIndex)])
        }
    }

    @inline(__always)
    private mutating func decodeLeafUnchecked<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == String.self { return unsafeBitCast(try decode(String.self), to: T.self) }
        if T.self == Int.self { return unsafeBitCast(try decode(Int.self), to: T.self) }
        if T.self == Double.self { return unsafeBitCast(try decode(Double.self), to: T.self) }
        if T.self == Bool.self { return unsafeBitCast(try decode(Bool.self), to: T.self) }
        return try decode(type)
    }

    @inline(__always)
    private mutating func decodeLeafIfPresentUnchecked<T: Decodable>(_ type: T.Type) throws -> T? {
        if T.self == String.self { return unsafeBitCast(try decodeIfPresent(String.self), to: T?.self) }
        if T.self == Int.self { return unsafeBitCast(try decodeIfPresent(Int.self), to: T?.self) }
        if T.self == Double.self { return unsafeBitCast(try decodeIfPresent(Double.self), to: T?.self) }
        if T.self == Bool.self { return unsafeBitCast(try decodeIfPresent(Bool.self), to: T?.self) }
        return try decodeIfPresent(type)
    }
}

/// Names the path and the number when Foundation's decoder refuses a number.
///
/// For a number that does not fit the type asked for (`1.5` or 2^64 as `Int`, `1e400` as
/// `Double`), Foundation's JSON decoder throws an error of its own rather than a
/// `DecodingError`, and its top level reports that as "The given data was not valid JSON" at
/// the root. Caught where the value is read, it becomes a `DecodingError.dataCorrupted` at the
/// value's path: `the number 1.5 does not fit in Int`.
enum NumberFit {
    /// `error` as a `DecodingError` at `codingPath` when it is Foundation's error for a number
    /// that does not fit `type`; any other error as it is.
    @inline(never)
    static func named(
        _ error: any Error, _ type: Any.Type, at codingPath: @autoclosure () -> [any CodingKey]
    )
        -> any Error
    {
        if case DecodingError.dataCorrupted(let context) = error {
            // Foundations that report the number themselves, with its path: "Parsed JSON
            // number <1.5> does not fit in Int."; the same message as the others.
            guard let number = parsedNumber(in: context.debugDescription) else { return error }
            return DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: context.codingPath, debugDescription: message(number: number, type: type)))
        }
        guard let number = unfitNumber(in: error) else { return error }
        return DecodingError.dataCorrupted(
            DecodingError.Context(
                codingPath: codingPath(), debugDescription: message(number: number, type: type)))
    }

    /// `1.5` out of "Parsed JSON number <1.5> does not fit in Int.".
    private static func parsedNumber(in text: String) -> String? {
        guard text.hasPrefix("Parsed JSON number <"), let end = text.firstIndex(of: ">") else { return nil }
        return String(text[text.index(text.startIndex, offsetBy: 20)..<end])
    }

    /// The message for `number`, which does not fit in `type`.
    static func message(number: String, type: Any.Type) -> String {
        "the number \(number) does not fit in \(DecodingFailure.typeName(type))"
    }

    /// The number's text, when `error` is Foundation's `numberIsNotRepresentableInSwift(parsed:)`.
    private static func unfitNumber(in error: any Error) -> String? {
        let mirror = Mirror(reflecting: error)
        guard mirror.displayStyle == .enum, let payload = mirror.children.first,
            payload.label == "numberIsNotRepresentableInSwift"
        else { return nil }
        if let text = payload.value as? String { return text }
        return Mirror(reflecting: payload.value).children.first?.value as? String
    }
}
