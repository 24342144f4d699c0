import Foundation
import Locking

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
    /// The record types ``encode(_:)`` declined once.
    private static let declined = Locked<Set<ObjectIdentifier>>([])

    /// ``encode(_:)``, not tried for a type it declined before: a record of that type is left to
    /// `JSONEncoder` at once (the same bytes) instead of being written halfway first. Declining
    /// may depend on the value (a dictionary's keys, an enum's case), so a type may be declined
    /// for values it would have written: they cost `JSONEncoder`'s time, never other bytes.
    static func encodeUnlessDeclined<T: Encodable>(_ value: T) -> Data? {
        let type = ObjectIdentifier(T.self)
        guard !declined.withLock({ $0.contains(type) }) else { return nil }
        guard let data = encode(value) else {
            declined.withLock { _ = $0.insert(type) }
            return nil
        }
        return data
    }

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

/// The fields written so far: their values' JSON text one after another in one buffer, and
/// each field's key and where its value lies in it (no array of its own a field).
///
/// One record's writer, used by one `encode(to:)` on one thread: its buffers skip the runtime's
/// exclusivity checks.
final class FlatJSONWriter {
    @exclusivity(unchecked) fileprivate var values: [UInt8] = []
    @exclusivity(unchecked) fileprivate var fields: [(key: String, start: Int, end: Int)] = []
    /// Whether the record asked for its keyed container (once), and whether it did anything else.
    fileprivate var keyed = false
    fileprivate var refused = false

    init() {
        values.reserveCapacity(256)
        fields.reserveCapacity(16)
    }

    /// Appends one field whose value was written from `start` to the end of ``values``.
    fileprivate func field(_ key: String, from start: Int) {
        fields.append((key, start, values.count))
    }

    /// `{"key":value,…}` in the keys' byte order, or `nil` when the record is not flat.
    fileprivate func output() -> Data? {
        guard keyed, !refused else { return nil }
        fields.sort { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        // A key written twice (or two spellings Swift holds equal): `JSONEncoder` keeps the last;
        // left to it. ASCII keys are equal only with the same bytes, so sorted they sit side by
        // side; other keys are compared as Swift compares them.
        var ascii = true
        for (offset, field) in fields.enumerated() {
            if offset > 0, fields[offset - 1].key == field.key { return nil }
            if ascii, !field.key.utf8.allSatisfy({ $0 < 0x80 }) { ascii = false }
        }
        if !ascii, Set(fields.lazy.map(\.key)).count != fields.count { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(values.count + fields.count * 8 + 2)
        bytes.append(UInt8(ascii: "{"))
        for (offset, field) in fields.enumerated() {
            if offset > 0 { bytes.append(UInt8(ascii: ",")) }
            Self.appendString(field.key, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            bytes.append(contentsOf: values[field.start..<field.end])
        }
        bytes.append(UInt8(ascii: "}"))
        return Data(bytes)
    }

    /// `text` as `JSONEncoder` quotes it: `"` and `\` escaped, `/` as `\/`, the controls `\b`,
    /// `\f`, `\n`, `\r`, `\t` by name and the others as `\u00xx`, everything else as is. The
    /// runs between escapes are copied whole.
    static func appendString(_ text: String, to bytes: inout [UInt8]) {
        var text = text
        bytes.append(UInt8(ascii: "\""))
        text.withUTF8 { utf8 in
            var run = 0
            for index in 0..<utf8.count {
                let byte = utf8[index]
                guard
                    byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "/")
                else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<index]))
                run = index + 1
                switch byte {
                case 0x08: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
                case 0x0C: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
                case 0x0A: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
                case 0x0D: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
                case 0x09: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
                case ..<0x20:
                    let hex: [UInt8] = Array("0123456789abcdef".utf8)
                    bytes += [
                        UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                        hex[Int(byte >> 4)], hex[Int(byte & 0x0F)],
                    ]
                default: bytes += [UInt8(ascii: "\\"), byte]
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends a finite number's text as `JSONEncoder` writes it: its description without a
    /// trailing `.0` (`1`, `0.1`, `1e+20`).
    fileprivate func appendNumber(_ description: String) {
        var text = Substring(description)
        if text.hasSuffix(".0") { text = text.dropLast(2) }
        values.append(contentsOf: text.utf8)
    }

    /// Appends an integer's text.
    fileprivate func appendInteger(_ value: some BinaryInteger) {
        values.append(contentsOf: String(value).utf8)
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
        return ValueCapture(writer: FlatJSONWriter(), start: 0)
    }
}

/// The record's fields, each written as its JSON text.
private struct FlatKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let writer: FlatJSONWriter
    var codingPath: [any CodingKey] { [] }

    /// Writes `key`'s value through a ``ValueCapture`` at the end of the buffer (which writes
    /// every value, plain or not, and refuses what is not flat), then records the field.
    @inline(__always)
    private func put(_ key: Key, _ write: (inout ValueCapture) throws -> Void) throws {
        var capture = ValueCapture(writer: writer, start: writer.values.count)
        try write(&capture)
        writer.field(key.stringValue, from: capture.start)
    }

    mutating func encodeNil(forKey key: Key) throws { try put(key) { try $0.encodeNil() } }
    mutating func encode(_ value: Bool, forKey key: Key) throws { try put(key) { try $0.encode(value) } }
    mutating func encode(_ value: String, forKey key: Key) throws { try put(key) { try $0.encode(value) } }
    mutating func encode(_ value: Double, forKey key: Key) throws { try put(key) { try $0.encode(value) } }
    mutating func encode(_ value: Float, forKey key: Key) throws { try put(key) { try $0.encode(value) } }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func encode(_ value: Int128, forKey key: Key) throws { try put(key) { try $0.encode(value) } }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func encode(_ value: UInt128, forKey key: Key) throws { try put(key) { try $0.encode(value) } }
    mutating func encode(_ value: Int, forKey key: Key) throws { try put(key) { try $0.encode(value) } }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try put(key) { try $0.encode(value) } }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try put(key) { try $0.encode(value) } }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try put(key) { try $0.encode(value) } }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try put(key) { try $0.encode(value) } }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try put(key) { try $0.encode(value) } }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try put(key) { try $0.encode(value) } }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try put(key) { try $0.encode(value) } }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try put(key) { try $0.encode(value) } }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try put(key) { try $0.encode(value) } }

    /// Another value: written when it encodes itself as one plain value (a raw-value enum, a
    /// `Date`, a wrapper), as `JSONEncoder` then writes it; anything else leaves the record to it.
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try put(key) { try $0.encode(value) } }

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
        return ValueCapture(writer: FlatJSONWriter(), start: 0)
    }
    mutating func superEncoder(forKey key: Key) -> any Encoder {
        writer.refused = true
        return ValueCapture(writer: FlatJSONWriter(), start: 0)
    }
}

/// The `Encoder` of one field's value: it takes exactly one plain value through a single-value
/// container, written into the writer's buffer from `start`; anything else (a second value, a
/// container, a value written nowhere) marks the record as not flat.
private struct ValueCapture: Encoder, SingleValueEncodingContainer {
    let writer: FlatJSONWriter
    /// Where the value begins in the writer's buffer; the buffer still ends there while no value
    /// was written.
    let start: Int
    /// A value that reads its path may write differently by it, and this capture does not keep
    /// one (`JSONEncoder` gives the field's key): reading it leaves the record to `JSONEncoder`.
    var codingPath: [any CodingKey] {
        writer.refused = true
        return []
    }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        writer.refused = true
        return KeyedEncodingContainer(FlatKeyedContainer<Key>(writer: FlatJSONWriter()))
    }
    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        writer.refused = true
        return RefusingUnkeyedContainer()
    }
    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    /// Marks the record as not flat and throws: a record that catches the error and goes on still
    /// leaves its JSON to `JSONEncoder`, never writes it without the field.
    private func refuse() -> NotFlat {
        writer.refused = true
        return NotFlat()
    }

    /// Checks that nothing was written yet (a second value is not one plain value) and that the
    /// record was not refused.
    private func first() throws {
        guard writer.values.count == start, !writer.refused else { throw refuse() }
    }

    private func take(_ literal: StaticString) throws {
        try first()
        literal.withUTF8Buffer { writer.values.append(contentsOf: $0) }
    }

    private func take(integer value: some BinaryInteger) throws {
        try first()
        writer.appendInteger(value)
    }

    mutating func encodeNil() throws { try take("null") }
    mutating func encode(_ value: Bool) throws { try take(value ? "true" : "false") }
    mutating func encode(_ value: String) throws {
        try first()
        FlatJSONWriter.appendString(value, to: &writer.values)
    }
    mutating func encode(_ value: Double) throws {
        guard value.isFinite else { throw refuse() }
        try first()
        writer.appendNumber(value.description)
    }
    mutating func encode(_ value: Float) throws {
        guard value.isFinite else { throw refuse() }
        try first()
        writer.appendNumber(value.description)
    }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func encode(_ value: Int128) throws { throw refuse() }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func encode(_ value: UInt128) throws { throw refuse() }
    mutating func encode(_ value: Int) throws { try take(integer: value) }
    mutating func encode(_ value: Int8) throws { try take(integer: value) }
    mutating func encode(_ value: Int16) throws { try take(integer: value) }
    mutating func encode(_ value: Int32) throws { try take(integer: value) }
    mutating func encode(_ value: Int64) throws { try take(integer: value) }
    mutating func encode(_ value: UInt) throws { try take(integer: value) }
    mutating func encode(_ value: UInt8) throws { try take(integer: value) }
    mutating func encode(_ value: UInt16) throws { try take(integer: value) }
    mutating func encode(_ value: UInt32) throws { try take(integer: value) }
    mutating func encode(_ value: UInt64) throws { try take(integer: value) }

    /// A value that encodes itself: through a capture of its own at the same place, which must
    /// leave exactly one plain value there.
    mutating func encode<T: Encodable>(_ value: T) throws {
        if writesItsOwnWay(T.self) { throw refuse() }
        try first()
        do {
            try value.encode(to: ValueCapture(writer: writer, start: start))
        } catch {
            throw refuse()
        }
        guard writer.values.count > start, !writer.refused else { throw refuse() }
    }
}

/// Whether `JSONEncoder` writes values of `type` its own way rather than by their `encode(to:)`
/// (base64, an absolute URL, a decimal's text); `Date` it writes by its `encode(to:)` (the
/// default strategy), and dictionaries encode keyed containers, which leave the record anyway.
@inline(__always)
private func writesItsOwnWay<T>(_ type: T.Type) -> Bool {
    type == Data.self || type == URL.self || type == Decimal.self
}

/// The unkeyed container handed to a record `FlatJSON` leaves to `JSONEncoder`: it writes
/// nothing, and throws at every value.
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
    mutating func superEncoder() -> any Encoder { ValueCapture(writer: FlatJSONWriter(), start: 0) }
}
