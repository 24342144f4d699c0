import Foundation

/// Makes a value of any `Decodable` type, so the schema probe can run an entity's `init(from:)`
/// to its end and see every key. The sample itself is thrown away: a column's type comes from
/// the property's declared type, never from the sample's encoding.
enum SampleValue {
    /// The strings and numbers a sample decoder answers with, tried in turn until the type's
    /// `init(from:)` accepts one (a partial date wants "1970-01-01", a UUID wrapper a UUID).
    static let profiles: [(text: String, number: Int64)] = [
        ("", 0), ("1970-01-01", 1), ("00000000-0000-0000-0000-000000000000", 0), ("https://example.com", 1),
        ("0", 1), ("a", 1),
    ]

    /// A sample of `T`, and whether it is the sample store format 1 made (format 1's schema probe
    /// answered with defaults only).
    static func make<T: Decodable>(_ type: T.Type) -> (value: T, firstProfile: Bool)? {
        if let value = primitive(T.self, profile: 0) { return (value, true) }
        if let none = (T.self as? any OptionalMarker.Type)?.none as? T { return (none, true) }
        if let cases = T.self as? any CaseIterable.Type, let first = firstCase(cases) as? T { return (first, true) }
        for index in profiles.indices {
            if let value = try? T(from: SampleDecoder(profile: index)) { return (value, index == 0) }
        }
        if let value = zeroFilled(T.self) { return (value, false) }
        return nil
    }

    static func firstCase<C: CaseIterable>(_ type: C.Type) -> Any? { type.allCases.first }

    /// A plain-data value with every bit zero: the first case of a payload-free enum (such as a
    /// `RawRepresentable` enum that is not `CaseIterable`, whose `init(rawValue:)` refuses the
    /// sample strings), or zeros for a struct of numbers. Only for trivial types, whose copies
    /// and destruction never follow a pointer, and never for zero-size (possibly uninhabited) types.
    static func zeroFilled<T>(_ type: T.Type) -> T? {
        guard _isPOD(T.self), MemoryLayout<T>.size > 0 else { return nil }
        return withUnsafeTemporaryAllocation(of: T.self, capacity: 1) { buffer in
            guard let base = buffer.baseAddress else { return nil }
            UnsafeMutableRawPointer(base).initializeMemory(as: UInt8.self, repeating: 0, count: MemoryLayout<T>.size)
            return base.move()
        }
    }

    static func primitive<T>(_ type: T.Type, profile: Int) -> T? {
        guard let kind = ValueKind.primitive(T.self) else { return nil }
        let sample = profiles[profile]
        let value: Any? =
            switch kind {
            case .integer: (T.self as? any FixedWidthInteger.Type).flatMap { $0.init(exactly: sample.number) }
            case .bool: sample.number != 0
            case .double: Double(sample.number)
            case .float: Float(sample.number)
            case .string: sample.text
            case .data: Data()
            case .date: Date(timeIntervalSinceReferenceDate: 0)
            case .uuid: UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
            case .url: URL(string: "https://example.com")
            case .decimal: Decimal(sample.number)
            case .json: nil
            }
        return value as? T
    }
}

/// Answers every request of a `Decodable` type with a sample value.
struct SampleDecoder: Decoder, SingleValueDecodingContainer {
    let profile: Int
    /// How many values deep this decoder is; past ``SampleDecoder/maximumDepth`` keyed containers
    /// offer no keys, so a recursive type (`indirect enum Expr { case add(Expr, Expr) … }`) ends
    /// in an error instead of recursing until the stack overflows.
    var depth = 0
    static let maximumDepth = 8
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(SampleKeyedContainer<Key>(profile: profile, depth: depth))
    }
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { EmptyUnkeyedContainer() }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool { false }
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try SampleDecoder(profile: profile, depth: depth + 1).make(T.self)
    }

    func make<T: Decodable>(_ type: T.Type) throws -> T {
        if let value = SampleValue.primitive(T.self, profile: profile) { return value }
        guard depth < Self.maximumDepth else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "sample too deep"))
        }
        if let cases = T.self as? any CaseIterable.Type, let first = SampleValue.firstCase(cases) as? T {
            return first
        }
        if let value = try? T(from: self) { return value }
        if let value = SampleValue.zeroFilled(T.self) { return value }
        return try T(from: self)
    }
}

struct SampleKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let profile: Int
    let depth: Int
    var codingPath: [any CodingKey] { [] }
    /// One key when the key type is a payload-free enum (its first case): the synthesized
    /// `init(from:)` of an enum with associated values wants exactly one key, the case's name.
    var allKeys: [Key] {
        guard depth < SampleDecoder.maximumDepth else { return [] }
        return SampleValue.zeroFilled(Key.self).map { [$0] } ?? []
    }
    private var nested: SampleDecoder { SampleDecoder(profile: profile, depth: depth + 1) }
    func contains(_ key: Key) -> Bool { true }
    func decodeNil(forKey key: Key) throws -> Bool { false }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try nested.make(T.self) }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? { nil }
    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        KeyedDecodingContainer(SampleKeyedContainer<NestedKey>(profile: profile, depth: depth + 1))
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { EmptyUnkeyedContainer() }
    func superDecoder() throws -> any Decoder { nested }
    func superDecoder(forKey key: Key) throws -> any Decoder { nested }
}

struct EmptyUnkeyedContainer: UnkeyedDecodingContainer {
    var codingPath: [any CodingKey] { [] }
    var count: Int? { 0 }
    var isAtEnd: Bool { true }
    var currentIndex: Int { 0 }
    private func end() -> DecodingError {
        DecodingError.valueNotFound(Any.self, .init(codingPath: [], debugDescription: "empty sample"))
    }
    mutating func decodeNil() throws -> Bool { throw end() }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { throw end() }
    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> { throw end() }
    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { throw end() }
    mutating func superDecoder() throws -> any Decoder { throw end() }
}
