#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLite
#endif

/// Writes and reads a raw-value column (a `RawRepresentable` property stored by its `String` or
/// integer raw value) through the property's own type, found once when the schema is made: no
/// `Any` box, existential or dynamic cast per value (about 3,000 instructions a value on the
/// general path, ``ValueCoding``). A value the fast path cannot take (an integer that does not fit,
/// a stored raw value with no case) falls back to the general path, which names the problem.
struct RawAccess: Sendable, Hashable {
    /// The property's type: the fast path serves a value of exactly this type.
    let type: ObjectIdentifier
    /// The reads and writes, specialized for the type.
    let access: any RawColumnAccess

    static func == (lhs: RawAccess, rhs: RawAccess) -> Bool { lhs.type == rhs.type }
    func hash(into hasher: inout Hasher) { hasher.combine(type) }

    /// The access for `T` stored by its raw value of `kind`, when that is `String` or an integer.
    static func of<T>(_ type: T.Type, kind: ValueKind) -> RawAccess? {
        guard let raw = T.self as? any RawRepresentable.Type else { return nil }
        switch kind {
        case .string: return text(raw)
        case .integer: return integer(raw)
        default: return nil
        }
    }

    private static func text<R: RawRepresentable>(_ type: R.Type) -> RawAccess? {
        guard R.RawValue.self == String.self else { return nil }
        return RawAccess(type: ObjectIdentifier(R.self), access: RawTextAccess<R>())
    }

    private static func integer<R: RawRepresentable>(_ type: R.Type) -> RawAccess? {
        guard let width = R.RawValue.self as? any FixedWidthInteger.Type else { return nil }
        return integer(R.self, width)
    }

    private static func integer<R: RawRepresentable, I: FixedWidthInteger>(_ type: R.Type, _ width: I.Type) -> RawAccess
    {
        RawAccess(type: ObjectIdentifier(R.self), access: RawIntegerAccess<R, I>())
    }
}

/// A raw-value column's writes and reads for one property type (``RawAccess``).
protocol RawColumnAccess: Sendable {
    /// The column value of the value at `value` (of the access's type), or `nil` for the general
    /// path.
    func write(_ value: UnsafeRawPointer) -> DatabaseValue?
    /// Reads the column at `index` of the statement's current row (its storage class already
    /// checked) as `T`, the access's type; ``RawFallback`` sends the value to the general path.
    /// Thrown, not returned as an optional: an optional or a `Result` of `T` would cost a generic
    /// metadata lookup per value in the unspecialized caller.
    func read<T>(_ handle: OpaquePointer, _ index: Int32, as type: T.Type) throws(RawFallback) -> T
}

/// A value the fast path of a value of its own type (`ValueCoding.ownType`, which reads raw values
/// through ``RawColumnAccess``) leaves to the general path, which reads it or names the problem.
struct RawFallback: Error {}

/// A property stored by its `String` raw value.
private struct RawTextAccess<R: RawRepresentable>: RawColumnAccess {
    func write(_ value: UnsafeRawPointer) -> DatabaseValue? {
        .text(_identityCast(value.assumingMemoryBound(to: R.self).pointee.rawValue, to: String.self))
    }

    func read<T>(_ handle: OpaquePointer, _ index: Int32, as type: T.Type) throws(RawFallback) -> T {
        guard let text = ValueCoding.validString(ValueCoding.rawText(handle, index)),
            let value = R(rawValue: _identityCast(text, to: R.RawValue.self))
        else { throw RawFallback() }
        return _identityCast(value, to: T.self)
    }
}

/// A property stored by its integer raw value, of type `I` (its `RawValue`).
private struct RawIntegerAccess<R: RawRepresentable, I: FixedWidthInteger>: RawColumnAccess {
    func write(_ value: UnsafeRawPointer) -> DatabaseValue? {
        Int64(exactly: _identityCast(value.assumingMemoryBound(to: R.self).pointee.rawValue, to: I.self))
            .map(DatabaseValue.integer)
    }

    func read<T>(_ handle: OpaquePointer, _ index: Int32, as type: T.Type) throws(RawFallback) -> T {
        guard let raw = I(exactly: sqlite3_column_int64(handle, index)),
            let value = R(rawValue: _identityCast(raw, to: R.RawValue.self))
        else { throw RawFallback() }
        return _identityCast(value, to: T.self)
    }
}
