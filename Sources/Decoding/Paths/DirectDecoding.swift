import Foundation

// Foundation's containers have fast concrete entry points for `String`, `Int`, `Double` and
// `Bool`; the generic `decode<T>` takes a slower road through `T.init(from:)`. These helpers
// pick the concrete entry point when the generic type is one of those, so that forwarding
// through the path-aware containers costs no more than a direct call.

extension KeyedDecodingContainer {
    /// Decodes a leaf value through the concrete overload when there is one.
    @inline(__always)
    func decodeLeaf<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        // Each `unsafeBitCast` below runs only when `T` is exactly the type it casts from.
        if T.self == String.self { return unsafeBitCast(try decode(String.self, forKey: key), to: T.self) }
        if T.self == Int.self { return unsafeBitCast(try decode(Int.self, forKey: key), to: T.self) }
        if T.self == Double.self { return unsafeBitCast(try decode(Double.self, forKey: key), to: T.self) }
        if T.self == Bool.self { return unsafeBitCast(try decode(Bool.self, forKey: key), to: T.self) }
        return try decode(type, forKey: key)
    }

    /// Decodes an optional leaf value through the concrete overload when there is one.
    @inline(__always)
    func decodeLeafIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
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
        if T.self == String.self { return unsafeBitCast(try decode(String.self), to: T.self) }
        if T.self == Int.self { return unsafeBitCast(try decode(Int.self), to: T.self) }
        if T.self == Double.self { return unsafeBitCast(try decode(Double.self), to: T.self) }
        if T.self == Bool.self { return unsafeBitCast(try decode(Bool.self), to: T.self) }
        return try decode(type)
    }

    /// Decodes an optional leaf element through the concrete overload when there is one.
    @inline(__always)
    mutating func decodeLeafIfPresent<T: Decodable>(_ type: T.Type) throws -> T? {
        if T.self == String.self { return unsafeBitCast(try decodeIfPresent(String.self), to: T?.self) }
        if T.self == Int.self { return unsafeBitCast(try decodeIfPresent(Int.self), to: T?.self) }
        if T.self == Double.self { return unsafeBitCast(try decodeIfPresent(Double.self), to: T?.self) }
        if T.self == Bool.self { return unsafeBitCast(try decodeIfPresent(Bool.self), to: T?.self) }
        return try decodeIfPresent(type)
    }
}
