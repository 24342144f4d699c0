import Foundation

/// Decoding one value of any type, with the special cases `JSONDecoder` has.
extension FastDecodingSession {
    /// Decodes `T` from the value at `index`, whose coding path is `parent` followed by `component`.
    ///
    /// Scalars are read directly. `URL` is read from a string as `JSONDecoder` reads it;
    /// `Data`, `Decimal` and (unless dates are deferred) `Date` are left to `JSONDecoder`;
    /// every other type decodes itself from a ``FastDecoder``.
    ///
    /// The generic code runs unspecialized for callers' types; each comparison below is of two
    /// metadata pointers, and each `unsafeBitCast` runs only when `T` is the type it casts from.
    @inline(__always)
    func decodeValue<T: Decodable>(
        _ type: T.Type, at index: Int, parent: CodingPathNode?, component: CodingPathNode.Component?
    ) throws -> T {
        if T.self == String.self { return unsafeBitCast(try string(at: index), to: T.self) }
        if T.self == Int.self { return unsafeBitCast(try integer(Int.self, at: index), to: T.self) }
        if T.self == Double.self { return unsafeBitCast(try double(at: index), to: T.self) }
        if T.self == Bool.self { return unsafeBitCast(try bool(at: index), to: T.self) }
        return try decodeOther(type, at: index, parent: parent, component: component)
    }

    /// ``decodeValue(_:at:parent:component:)`` for the types other than the four most common.
    @inline(never)
    private func decodeOther<T: Decodable>(
        _ type: T.Type, at index: Int, parent: CodingPathNode?, component: CodingPathNode.Component?
    ) throws -> T {
        if T.self == Int64.self { return unsafeBitCast(try integer(Int64.self, at: index), to: T.self) }
        if T.self == Int32.self { return unsafeBitCast(try integer(Int32.self, at: index), to: T.self) }
        if T.self == Int16.self { return unsafeBitCast(try integer(Int16.self, at: index), to: T.self) }
        if T.self == Int8.self { return unsafeBitCast(try integer(Int8.self, at: index), to: T.self) }
        if T.self == UInt.self { return unsafeBitCast(try integer(UInt.self, at: index), to: T.self) }
        if T.self == UInt64.self { return unsafeBitCast(try integer(UInt64.self, at: index), to: T.self) }
        if T.self == UInt32.self { return unsafeBitCast(try integer(UInt32.self, at: index), to: T.self) }
        if T.self == UInt16.self { return unsafeBitCast(try integer(UInt16.self, at: index), to: T.self) }
        if T.self == UInt8.self { return unsafeBitCast(try integer(UInt8.self, at: index), to: T.self) }
        if T.self == Float.self { return unsafeBitCast(try float(at: index), to: T.self) }
        if T.self == URL.self {
            // `JSONDecoder` reads a URL as a string and `URL(string:)`.
            guard let url = URL(string: try string(at: index)) else { throw fail(.decodingError) }
            return unsafeBitCast(url, to: T.self)
        }
        if T.self == Data.self || T.self == Decimal.self { throw fail(.unsupported) }
        if T.self == Date.self && !datesAreDeferred { throw fail(.unsupported) }
        try checkNotDeferred()
        let location = component.map { CodingPathNode(parent: parent, component: $0) } ?? parent
        do {
            return try T(from: FastDecoder(session: self, index: index, location: location))
        } catch let error as FastDeferral {
            throw error
        } catch {
            // An error of the type's own: the other path decides what it becomes.
            throw fail(.decodingError)
        }
    }
}
