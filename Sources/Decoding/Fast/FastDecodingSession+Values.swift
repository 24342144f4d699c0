import Foundation

/// Decoding one value of any type, with the special cases `JSONDecoder` has.
extension FastDecodingSession {
    /// Decodes `T` from the value at `index`, whose coding path is `parent` followed by `component`.
    ///
    /// Scalars are read directly. `URL` is read from a string as `JSONDecoder` reads it, and a
    /// null `URL` or `Date` throws as it does; `Data`, `Decimal` and (unless dates are
    /// deferred) `Date` are left to `JSONDecoder`; every other type decodes itself from a
    /// ``FastDecoder``.
    ///
    /// The generic code runs unspecialized for callers' types; each comparison below is of two
    /// metadata pointers, and each `unsafeBitCast` runs only when `T` is the type it casts from.
    @inline(__always)
    func decodeValue<T: Decodable>(
        _ type: T.Type, at index: Int, parent: CodingPathNode?, component: CodingPathNode.Component?
    ) throws -> T {
        if T.self == String.self { return unsafeBitCast(try string(at: index, parent, component), to: T.self) }
        if T.self == Int.self {
            return unsafeBitCast(try integer(Int.self, at: index, parent, component), to: T.self)
        }
        if T.self == Double.self { return unsafeBitCast(try double(at: index, parent, component), to: T.self) }
        if T.self == Bool.self { return unsafeBitCast(try bool(at: index, parent, component), to: T.self) }
        return try decodeOther(type, at: index, parent: parent, component: component)
    }

    /// ``decodeValue(_:at:parent:component:)`` for the types other than the four most common.
    @inline(never)
    private func decodeOther<T: Decodable>(
        _ type: T.Type, at index: Int, parent: CodingPathNode?, component: CodingPathNode.Component?
    ) throws -> T {
        func read<I: FixedWidthInteger>(_ type: I.Type) throws -> T {
            unsafeBitCast(try integer(I.self, at: index, parent, component), to: T.self)
        }
        if T.self == Int64.self { return try read(Int64.self) }
        if T.self == Int32.self { return try read(Int32.self) }
        if T.self == Int16.self { return try read(Int16.self) }
        if T.self == Int8.self { return try read(Int8.self) }
        if T.self == UInt.self { return try read(UInt.self) }
        if T.self == UInt64.self { return try read(UInt64.self) }
        if T.self == UInt32.self { return try read(UInt32.self) }
        if T.self == UInt16.self { return try read(UInt16.self) }
        if T.self == UInt8.self { return try read(UInt8.self) }
        if T.self == Float.self { return unsafeBitCast(try float(at: index, parent, component), to: T.self) }
        if T.self == URL.self {
            // `JSONDecoder` reads a URL as a non-null string and `URL(string:)`.
            if nodes[index].kind == .null { throw Self.nullValue(URL.self, Self.codingPath(parent, component)) }
            guard let url = URL(string: try string(at: index, parent, component)) else {
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(
                        codingPath: Self.codingPath(parent, component), debugDescription: "Invalid URL string."))
            }
            return unsafeBitCast(url, to: T.self)
        }
        if T.self == Data.self || T.self == Decimal.self { throw fail(.unsupported) }
        if T.self == Date.self {
            guard datesAreDeferred else { throw fail(.unsupported) }
            // `JSONDecoder` checks for null before `Date(from:)` reads a number.
            if nodes[index].kind == .null { throw Self.nullValue(Date.self, Self.codingPath(parent, component)) }
            // `Date(from:)` reads a `Double`; the path-aware containers name `Date` in the error
            // for a number it cannot hold.
            let seconds = try double(at: index, parent, component, named: Date.self)
            return unsafeBitCast(Date(timeIntervalSinceReferenceDate: seconds), to: T.self)
        }
        try checkNotDeferred()
        let location = component.map { CodingPathNode(parent: parent, component: $0) } ?? parent
        // The type's own errors, and the containers' `DecodingError`s it lets through, are the
        // ones the `JSONDecoder` route throws: they pass as they are.
        return try T(from: FastDecoder(session: self, index: index, location: location))
    }
}
