import Foundation
import Persistence
import TestSupport
import Testing

/// One row of every shape the property test generates: 24 properties, so 500 rows are 12,000
/// generated values.
struct Everything: StoredEntity, Equatable {
    /// A single-value wrapper whose encoding is a number or a string depending on the value.
    struct Measure: Codable, Sendable, Equatable {
        var value: Double?
        var note: String?
        init(value: Double?, note: String?) {
            self.value = value
            self.note = note
        }
        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let number = try? container.decode(Double.self) {
                (value, note) = (number, nil)
            } else if container.decodeNil() {
                (value, note) = (nil, nil)
            } else {
                (value, note) = (nil, try container.decode(String.self))
            }
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            if let value {
                try container.encode(value)
            } else if let note {
                try container.encode(note)
            } else {
                try container.encodeNil()
            }
        }
    }

    struct Nested: Codable, Sendable, Equatable {
        var when: Date
        var ratio: Float
        var label: String?
        var tags: [String]
    }

    var id: Int
    var int64: Int64
    var int8: Int8
    var uint32: UInt32
    var flag: Bool
    var double: Double
    var float: Float
    var optionalDouble: Double?
    var text: String
    var optionalText: String?
    var bytes: Data
    var date: Date
    var optionalDate: Date?
    var uuid: UUID
    var url: URL
    var decimal: Decimal
    var genre: Genre
    var priority: Priority?
    var shape: Shape
    var scalar: JSONScalar
    var nestedOptional: Int??
    var optionals: [Double?]
    var dictionary: [String: [Int]]
    var nested: Nested
    var measure: Measure
}

/// Random values of every shape, from a seed.
struct ValueGenerator {
    var random: SeededGenerator

    mutating func bool() -> Bool { Bool.random(using: &random) }
    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }

    /// Any double but NaN: raw bit patterns (so subnormals and extremes), plus the special values.
    mutating func double() -> Double {
        let specials: [Double] = [0, -0.0, .infinity, -.infinity, .leastNonzeroMagnitude, -.leastNormalMagnitude, 0.1]
        if int(0...3) == 0 { return specials[int(0...specials.count - 1)] }
        while true {
            let value = Double(bitPattern: random.next())
            if !value.isNaN { return value }
        }
    }

    /// A double JSON can hold: any but NaN and the infinities.
    mutating func finite() -> Double {
        let value = double()
        return value.isFinite ? value : -0.0
    }

    mutating func finiteFloat() -> Float {
        let value = float()
        return value.isFinite ? value : -0.0
    }

    mutating func float() -> Float {
        let specials: [Float] = [0, -0.0, .infinity, -.infinity, .leastNonzeroMagnitude, .greatestFiniteMagnitude]
        if int(0...3) == 0 { return specials[int(0...specials.count - 1)] }
        while true {
            let value = Float(bitPattern: UInt32(truncatingIfNeeded: random.next()))
            if !value.isNaN { return value }
        }
    }

    /// Hostile text: quotes, SQL, NUL, combining marks, emoji, right-to-left marks, any plane.
    mutating func string() -> String {
        let pieces = [
            "'", "\"", "); DROP TABLE Everything;--", "\u{0}", "e\u{301}", "É", "ß", "🧑🏽‍💻", "\u{202E}", "%", "_",
            "\\", "\n", "\r\n", "\u{FEFF}", "İ", "ﬁ", "\u{10FFFF}", "null", "+Infinity", "[]", "{}",
        ]
        var text = ""
        for _ in 0..<int(0...12) {
            switch int(0...2) {
            case 0: text += pieces[int(0...pieces.count - 1)]
            case 1: text += String(UnicodeScalar(UInt8(int(32...126))))
            default:
                if let scalar = Unicode.Scalar(UInt32(int(0...0x10FFFF))) { text.unicodeScalars.append(scalar) }
            }
        }
        return text
    }

    mutating func date() -> Date {
        let interval =
            int(0...2) == 0
            ? double() : Double(int(-4_000_000_000...4_000_000_000)) + double().truncatingRemainder(dividingBy: 1)
        return Date(timeIntervalSinceReferenceDate: interval.isFinite ? interval : 0.1)
    }

    mutating func decimal() -> Decimal {
        Decimal(
            sign: bool() ? .minus : .plus, exponent: int(-60...60),
            significand: Decimal(UInt64.random(in: 0...UInt64.max, using: &random)))
    }

    mutating func url() -> URL {
        var components = URLComponents()
        components.scheme = ["https", "http", "file", "ftp"][int(0...3)]
        components.host = ["example.com", "xn--bcher-kva.example", "127.0.0.1"][int(0...2)]
        components.path = "/" + (0..<int(0...3)).map { _ in string().filter { $0 != "/" } }.joined(separator: "/")
        if bool() { components.queryItems = [URLQueryItem(name: string(), value: bool() ? string() : nil)] }
        if bool() { components.fragment = string() }
        return components.url ?? URL(fileURLWithPath: "/tmp")
    }

    mutating func shape() -> Shape {
        switch int(0...2) {
        case 0: .circle(radius: finite())
        case 1: .label(string(), size: bool() ? int(-5...5) : nil)
        default: .empty
        }
    }

    mutating func scalar() -> JSONScalar {
        switch int(0...2) {
        case 0: .bool(bool())
        case 1: .number(finite())
        default: .string(string())
        }
    }

    mutating func everything(id: Int) -> Everything {
        Everything(
            id: id, int64: Int64(bitPattern: random.next()), int8: Int8.random(in: .min ... .max, using: &random),
            uint32: UInt32.random(in: .min ... .max, using: &random), flag: bool(), double: double(), float: float(),
            optionalDouble: bool() ? double() : nil, text: string(), optionalText: bool() ? string() : nil,
            bytes: Data((0..<int(0...40)).map { _ in UInt8.random(in: 0...255, using: &random) }), date: date(),
            optionalDate: bool() ? date() : nil,
            uuid: UUID(
                uuid: withUnsafeBytes(of: (random.next(), random.next())) {
                    $0.load(as: uuid_t.self)
                }), url: url(), decimal: decimal(), genre: [Genre.fantasy, .history, .poetry][int(0...2)],
            priority: [Priority.low, .high, nil][int(0...2)], shape: shape(), scalar: scalar(),
            nestedOptional: [Int??.none, .some(nil), .some(int(-9...9))][int(0...2)],
            optionals: (0..<int(0...5)).map { _ in bool() ? finite() : nil },
            dictionary: Dictionary(
                uniqueKeysWithValues: (0..<int(0...3)).map { i in ("\(i)" + string(), [int(-9...9)]) }),
            nested: .init(
                when: date(), ratio: finiteFloat(), label: bool() ? string() : nil, tags: [string(), string()]),
            measure: [
                Everything.Measure(value: finite(), note: nil), .init(value: nil, note: string()),
                .init(value: nil, note: nil),
            ][int(0...2)])
    }
}

/// A rendering that differs whenever two values differ in any bit: every double and float by its
/// bit pattern, so `-0.0` and `0.0` differ although they are `==`.
func fingerprint(_ value: Everything) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    encoder.dateEncodingStrategy = .custom { date, encoder in
        var container = encoder.singleValueContainer()
        try container.encode("date:\(date.timeIntervalSinceReferenceDate.bitPattern)")
    }
    encoder.nonConformingFloatEncodingStrategy = .convertToString(
        positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
    var text = String(decoding: try encoder.encode(value), as: UTF8.self)
    // JSON prints the shortest text that reads back as the same double; add the raw bits of the
    // values a JSON number could blur (zero signs).
    text += "|\(value.double.bitPattern)|\(value.float.bitPattern)|\(value.optionalDouble?.bitPattern ?? 0)"
    text += "|\(value.nested.ratio.bitPattern)|\(value.optionals.map { $0?.bitPattern ?? 1 })"
    if case .circle(let radius) = value.shape { text += "|\(radius.bitPattern)" }
    if case .number(let number) = value.scalar { text += "|\(number.bitPattern)" }
    if let measure = value.measure.value { text += "|\(measure.bitPattern)" }
    return text
}

@Suite struct RoundTripPropertyTests {
    @Test func twelveThousandGeneratedValuesComeBackBitForBit() throws {
        let seed = UInt64.random(in: 0...UInt64.max)
        var generator = ValueGenerator(random: SeededGenerator(seed: seed))
        let rows = (0..<500).map { generator.everything(id: $0) }
        let fixture = try StoreFixture()
        let store = try fixture.open([Everything.self])
        try store.context.persistAndWait { tx in
            for row in rows { try tx.insert(row) }
        }
        let back = try store.context.readAndWait { tx in
            try tx.fetch(Query<Everything>(sortedBy: [Field<Everything, Int>("id").ascending()]))
        }
        #expect(back.count == rows.count, "seed \(seed)")
        for (written, read) in zip(rows, back) {
            let expected = try fingerprint(written)
            let actual = try fingerprint(read)
            #expect(
                actual == expected,
                "seed \(seed): row \(written.id) came back changed.\nwrote \(written)\nread  \(read)")
            if actual != expected { break }
        }
        store.close()
    }
}
