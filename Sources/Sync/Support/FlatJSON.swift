import Foundation

/// A record written as `JSONEncoder` with `.sortedKeys` writes it, byte for byte, for the common
/// shape of a synced record: one keyed container of strings, numbers, booleans and nulls, and of
/// values that encode themselves as one of those (raw-value enums, `Date`s, single-value
/// wrappers). Every local write encodes its record (and the stored row it changes) this way;
/// `JSONEncoder` builds a tree of boxed values and sorts it, several times the cost.
///
/// Anything else (a nested container, an array, `Data`, `URL`, `Decimal`, a dictionary, a number
/// that is not finite, a key written twice) returns `nil`, and the caller uses `JSONEncoder`,
/// which writes those its own way.
enum FlatJSON {
    /// The record's JSON, or `nil` when it is not of the shape above (or when this platform's
    /// `JSONEncoder` orders keys otherwise than by their UTF-8 bytes, as Foundation before macOS 14
    /// and iOS 17 does: `FlatJSON` then declines every record).
    static func encode<T: Encodable>(_ value: T) -> Data? {
        guard sortsKeysByBytes else { return nil }
        let writer = FlatJSONWriter()
        do {
            try value.encode(to: FlatRecordEncoder(writer: writer))
        } catch {
            return nil
        }
        return writer.output()
    }
}

extension FlatJSON {
    /// Whether `JSONEncoder` with `.sortedKeys` orders keys by their UTF-8 bytes here (`B` before
    /// `a`, `a10` before `a2`), as the one `FlatJSON` writes; asked once.
    static let sortsKeysByBytes: Bool = {
        struct Probe: Encodable {
            var a2 = 0
            var a = 0
            var a10 = 0
            var B = 0
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let bytes = try? encoder.encode(Probe())
        return bytes == Data(#"{"B":0,"a":0,"a10":0,"a2":0}"#.utf8)
    }()
}

/// Thrown to leave a record `FlatJSON` does not write (the caller then uses `JSONEncoder`).
private struct NotFlat: Error {}

/// The fields written so far, each as its key and its value's JSON text.
final class FlatJSONWriter {
    fileprivate var fields: [(key: String, value: [UInt8])] = []
    /// Whether the record asked for its keyed container (once), and whether it did anything else.
    fileprivate var keyed = false
    fileprivate var refused = false

    /// `{"key":value,…}` in the keys' byte order, or `nil` when the record is not flat.
    fileprivate func output() -> Data? {
        guard keyed, !refused else { return nil }
        // A key written twice (or two spellings Swift holds equal): `JSONEncoder` keeps the last;
        // left to it.
        var keys = Set<String>(minimumCapacity: fields.count)
        for field in fields where !keys.insert(field.key).inserted { return nil }
        fields.sort { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        var bytes: [UInt8] = [UInt8(ascii: "{")]
        bytes.reserveCapacity(fields.reduce(2) { $0 + $1.key.utf8.count + $1.value.count + 4 })
        for (offset, field) in fields.enumerated() {
            if offset > 0 { bytes.append(UInt8(ascii: ",")) }
            Self.appendString(field.key, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            bytes += field.value
        }
        bytes.append(UInt8(ascii: "}"))
        return Data(bytes)
    }

    /// `text` as `JSONEncoder` quotes it: `"` and `\` escaped, `/` as `\/`, the controls `\b`,
    /// `\f`, `\n`, `\r`, `\t` by name and the others as `\u00xx`, everything else as is.
    static func appendString(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"):
                bytes.append(UInt8(ascii: "\\"))
                bytes.append(byte)
            case 0x08: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
            case 0x0C: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
            case 0x0A: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case ..<0x20:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                bytes += [
                    UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)],
                    hex[Int(byte & 0x0F)],
                ]
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// A finite number's text as `JSONEncoder` writes it: its description without a trailing
    /// `.0` (`1`, `0.1`, `1e+20`).
    static func number(_ description: String) -> [UInt8] {
        var text = Substring(description)
        if text.hasSuffix(".0") { text = text.dropLast(2) }
        return Array(text.utf8)
    }
}

/// The `Encoder` a record's `encode(to:)` receives: its keyed container writes fields.
private struct FlatRecordEncoder: Encoder {
    let writer: FlatJSONWriter
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        // A second request (a custom `encode(to:)` may ask again) is left to `JSONEncoder`.
        if writer.keyed { writer.refused = true }
        writer.keyed = true
        return KeyedEncodingContainer(FlatKeyedContainer<Key>(writer: writer))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        writer.refused = true
        return RefusingUnkeyedContainer()
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        writer.refused = true
        return ValueCapture()
    }
}

/// The record's fields, each written as its JSON text.
private struct FlatKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let writer: FlatJSONWriter
    var codingPath: [any CodingKey] { [] }

    private func put(_ key: Key, _ value: [UInt8]) {
        writer.fields.append((key.stringValue, value))
    }

    /// Marks the record as not flat and throws: a record that catches the error and goes on still
    /// leaves its JSON to `JSONEncoder`, never writes it without the field.
    private func refuse() -> NotFlat {
        writer.refused = true
        return NotFlat()
    }

    mutating func encodeNil(forKey key: Key) throws { put(key, Array("null".utf8)) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { put(key, Array((value ? "true" : "false").utf8)) }
    mutating func encode(_ value: String, forKey key: Key) throws {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(value.utf8.count + 2)
        FlatJSONWriter.appendString(value, to: &bytes)
        put(key, bytes)
    }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        guard value.isFinite else { throw refuse() }
        put(key, FlatJSONWriter.number(value.description))
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        guard value.isFinite else { throw refuse() }
        put(key, FlatJSONWriter.number(value.description))
    }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func encode(_ value: Int128, forKey key: Key) throws { throw refuse() }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func encode(_ value: UInt128, forKey key: Key) throws { throw refuse() }
    mutating func encode(_ value: Int, forKey key: Key) throws { put(key, Array(String(value).utf8)) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { put(key, Array(String(value).utf8)) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { put(key, Array(String(value).utf8)) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { put(key, Array(String(value).utf8)) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { put(key, Array(String(value).utf8)) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { put(key, Array(String(value).utf8)) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { put(key, Array(String(value).utf8)) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { put(key, Array(String(value).utf8)) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { put(key, Array(String(value).utf8)) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { put(key, Array(String(value).utf8)) }

    /// Another value: written when it encodes itself as one plain value (a raw-value enum, a
    /// `Date`, a wrapper), as `JSONEncoder` then writes it; anything else leaves the record to it.
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        if writesItsOwnWay(T.self) { throw refuse() }
        let capture = ValueCapture()
        do {
            try value.encode(to: capture)
        } catch {
            throw refuse()
        }
        guard let json = capture.box.json, !capture.box.refused else { throw refuse() }
        put(key, json)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        writer.refused = true
        return KeyedEncodingContainer(FlatKeyedContainer<NestedKey>(writer: FlatJSONWriter()))
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        writer.refused = true
        return RefusingUnkeyedContainer()
    }
    mutating func superEncoder() -> any Encoder {
        writer.refused = true
        return ValueCapture()
    }
    mutating func superEncoder(forKey key: Key) -> any Encoder {
        writer.refused = true
        return ValueCapture()
    }
}

/// The `Encoder` of one field's value: it takes exactly one plain value through a single-value
/// container; any other use leaves the record to `JSONEncoder` (its `json` stays `nil`).
private struct ValueCapture: Encoder, SingleValueEncodingContainer {
    final class Box {
        var json: [UInt8]?
        var used = false
        /// Whether the value did anything but write one plain value (even if it caught the error).
        var refused = false
    }
    let box = Box()
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        box.refused = true
        return KeyedEncodingContainer(FlatKeyedContainer<Key>(writer: FlatJSONWriter()))
    }
    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        box.refused = true
        return RefusingUnkeyedContainer()
    }
    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    private func take(_ json: [UInt8]) throws {
        // A second value (or one after a container) is not one plain value.
        guard !box.used else { throw refuse() }
        box.used = true
        box.json = json
    }

    private func refuse() -> NotFlat {
        box.refused = true
        return NotFlat()
    }

    mutating func encodeNil() throws { try take(Array("null".utf8)) }
    mutating func encode(_ value: Bool) throws { try take(Array((value ? "true" : "false").utf8)) }
    mutating func encode(_ value: String) throws {
        var bytes: [UInt8] = []
        FlatJSONWriter.appendString(value, to: &bytes)
        try take(bytes)
    }
    mutating func encode(_ value: Double) throws {
        guard value.isFinite else { throw refuse() }
        try take(FlatJSONWriter.number(value.description))
    }
    mutating func encode(_ value: Float) throws {
        guard value.isFinite else { throw refuse() }
        try take(FlatJSONWriter.number(value.description))
    }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func encode(_ value: Int128) throws { throw refuse() }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func encode(_ value: UInt128) throws { throw refuse() }
    mutating func encode(_ value: Int) throws { try take(Array(String(value).utf8)) }
    mutating func encode(_ value: Int8) throws { try take(Array(String(value).utf8)) }
    mutating func encode(_ value: Int16) throws { try take(Array(String(value).utf8)) }
    mutating func encode(_ value: Int32) throws { try take(Array(String(value).utf8)) }
    mutating func encode(_ value: Int64) throws { try take(Array(String(value).utf8)) }
    mutating func encode(_ value: UInt) throws { try take(Array(String(value).utf8)) }
    mutating func encode(_ value: UInt8) throws { try take(Array(String(value).utf8)) }
    mutating func encode(_ value: UInt16) throws { try take(Array(String(value).utf8)) }
    mutating func encode(_ value: UInt32) throws { try take(Array(String(value).utf8)) }
    mutating func encode(_ value: UInt64) throws { try take(Array(String(value).utf8)) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        if writesItsOwnWay(T.self) { throw refuse() }
        guard !box.used else { throw refuse() }
        let inner = ValueCapture()
        do {
            try value.encode(to: inner)
        } catch {
            throw refuse()
        }
        guard let json = inner.box.json, !inner.box.refused else { throw refuse() }
        try take(json)
    }
}

/// Whether `JSONEncoder` writes values of `type` its own way rather than by their `encode(to:)`
/// (base64, an absolute URL, a decimal's text); `Date` it writes by its `encode(to:)` (the
/// default strategy), and dictionaries encode keyed containers, which leave the record anyway.
@inline(__always)
private func writesItsOwnWay<T>(_ type: T.Type) -> Bool {
    type == Data.self || type == URL.self || type == Decimal.self
}

/// The unkeyed container handed to a record `FlatJSON` leaves to `JSONEncoder`: it takes
/// anything and writes nothing.
private struct RefusingUnkeyedContainer: UnkeyedEncodingContainer {
    var codingPath: [any CodingKey] { [] }
    var count: Int { 0 }
    mutating func encodeNil() throws { throw NotFlat() }
    mutating func encode<T: Encodable>(_ value: T) throws { throw NotFlat() }
    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    )
        -> KeyedEncodingContainer<NestedKey>
    {
        KeyedEncodingContainer(FlatKeyedContainer<NestedKey>(writer: FlatJSONWriter()))
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { self }
    mutating func superEncoder() -> any Encoder { ValueCapture() }
}
