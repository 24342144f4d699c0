import Foundation

/// How SQLite holds a column's values: its storage class, and the column's declared type.
enum Storage: String, Sendable {
    case integer = "INTEGER"
    case real = "REAL"
    case text = "TEXT"
    case blob = "BLOB"

    /// The type the column is declared with.
    ///
    /// Floating-point columns have no declared type (SQLite's BLOB affinity): a `REAL` column
    /// stores `-0.0` as the integer `0`, which reads back as `+0.0`. Without affinity SQLite keeps
    /// the 8 bytes of every double as written; values still compare and sort as numbers.
    var declaredType: String { self == .real ? "" : rawValue }

    /// The storage class `sqlite3_column_type` reports for it.
    var sqliteType: Int32 {
        switch self {
        case .integer: 1  // SQLITE_INTEGER
        case .real: 2  // SQLITE_FLOAT
        case .text: 3  // SQLITE_TEXT
        case .blob: 4  // SQLITE_BLOB
        }
    }

    /// The name of a storage class as `sqlite3_column_type` reports it.
    static func name(ofSQLiteType type: Int32) -> String {
        switch type {
        case 1: "INTEGER"
        case 2: "REAL"
        case 3: "TEXT"
        case 4: "BLOB"
        default: "NULL"
        }
    }
}

/// What a stored property holds, learned from the property's declared Swift type.
enum ValueKind: Sendable, Hashable {
    /// Any fixed-width integer type, stored as a 64-bit integer.
    case integer
    case bool
    case double
    case float
    case string
    case data
    /// Stored as `timeIntervalSinceReferenceDate`, bit for bit.
    case date
    case uuid
    /// Stored as its absolute string; URLs relative to a base URL are refused.
    case url
    /// Stored as its canonical text, so every digit survives.
    case decimal
    /// Any other `Codable` value, stored as JSON text and decoded by JSON.
    case json

    var storage: Storage {
        switch self {
        case .integer, .bool: .integer
        case .double, .float, .date: .real
        case .string, .uuid, .url, .decimal, .json: .text
        case .data: .blob
        }
    }

    /// The kind of a primitive leaf type, or `nil` for any other type.
    static func primitive(_ type: Any.Type) -> ValueKind? {
        let id = ObjectIdentifier(type)
        return primitives[id]
    }

    private static let primitives: [ObjectIdentifier: ValueKind] = [
        ObjectIdentifier(Int.self): .integer, ObjectIdentifier(Int8.self): .integer,
        ObjectIdentifier(Int16.self): .integer, ObjectIdentifier(Int32.self): .integer,
        ObjectIdentifier(Int64.self): .integer, ObjectIdentifier(UInt.self): .integer,
        ObjectIdentifier(UInt8.self): .integer, ObjectIdentifier(UInt16.self): .integer,
        ObjectIdentifier(UInt32.self): .integer, ObjectIdentifier(UInt64.self): .integer,
        ObjectIdentifier(Bool.self): .bool, ObjectIdentifier(Double.self): .double,
        ObjectIdentifier(Float.self): .float, ObjectIdentifier(String.self): .string,
        ObjectIdentifier(Data.self): .data, ObjectIdentifier(Date.self): .date,
        ObjectIdentifier(UUID.self): .uuid, ObjectIdentifier(URL.self): .url,
        ObjectIdentifier(Decimal.self): .decimal,
    ]

    /// How a property of type `T` is stored: its kind, and whether it is a `RawRepresentable`
    /// stored by its raw value.
    static func of<T>(_ type: T.Type) -> (kind: ValueKind, isRaw: Bool) {
        if let kind = primitive(T.self) { return (kind, false) }
        // `T??`: SQL NULL cannot tell `nil` from `.some(nil)`, JSON `null` inside a non-NULL column can.
        if T.self is any OptionalMarker.Type { return (.json, false) }
        if let raw = T.self as? any RawRepresentable.Type, let kind = rawKind(raw), kind != .json {
            return (kind, true)
        }
        return (.json, false)
    }

    private static func rawKind<R: RawRepresentable>(_ type: R.Type) -> ValueKind? { primitive(R.RawValue.self) }
}

/// Lets the store recognise `Optional` types at run time.
protocol OptionalMarker {
    /// `nil`, as a value of the optional type.
    static var none: Self { get }
}

extension Optional: OptionalMarker {}

/// The Swift type name of a kind, for messages.
extension ValueKind {
    var label: String {
        switch self {
        case .integer: "an integer"
        case .bool: "Bool"
        case .double: "Double"
        case .float: "Float"
        case .string: "String"
        case .data: "Data"
        case .date: "Date"
        case .uuid: "UUID"
        case .url: "URL"
        case .decimal: "Decimal"
        case .json: "JSON"
        }
    }
}
