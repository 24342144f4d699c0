import Foundation
import Testing

@testable import Decoding

/// Numbers of every shape read as every integer width, `Float` and `Double`, both ways: the
/// fast path gives `JSONDecoder`'s value or its error (with the path-aware containers' message
/// and coding path) without the second route.
@Suite struct NumberDifferentialTests {
    struct Box<T: Decodable & Equatable>: Decodable, Equatable { var n: T }

    /// Exponents, fractions that are whole (`x.0`), negative zeros, 19 and 20 digits, the
    /// limits of each integer width, overflows and underflows of `Double` and `Float`, and the
    /// shapes where Foundation's rules have corners (see ``FoundationNumberRules``).
    static let numbers: [String] = [
        // Exponents.
        "1e2", "1E2", "1e+2", "-1e2", "1.5e1", "15e-1", "1e0", "1e-2", "2.5e-1", "1e18", "1e19", "1e20",
        "1.8446744073709551615e19", "9.223372036854775807e18", "-9.223372036854775808e18",
        // Zeros, with and without exponents, and Foundation's test for a true zero.
        "0", "-0", "0.0", "-0.0", "0e0", "0e1", "0E5", "0e12", "-0e1", "0.0e5", "0.00e5", "0.000e5", "-0e0",
        "-0.0e-5", "0.0000000000e1",
        // Whole and not whole fractions.
        "1.0", "-1.0", "1.5", "-1.5", "127.0", "128.0", "-128.0", "-129.0", "255.0", "256.0", "32767.0", "65536.0",
        "2147483647.0", "4294967295.0", "4294967296.0", "1.0000000000000001", "0.99999999999999999",
        "9007199254740992.0", "9007199254740993.0", "9007199254740993.5", "9007199254740993.0000",
        "-9007199254740993.5", "9223372036854775807.0", "9223372036854775807.5", "-9223372036854775808.0",
        "18446744073709551615.0", "18446744073709551615.9", "18446744073709551616.0",
        "9007199254740993.00000000000000000001", "12345678901234567.89e1",
        // Fractions an any-JSON enum probes as integers first (read by the exact decimal
        // conversion, without `strtod`): short, long, whole at 19 digits, and near 2^53.
        "0.25", "-0.5", "123.456", "0.1234567890123456789", "1.000000000000000000", "-2.000000000000000000",
        "4503599627370495.5", "-4503599627370496.5", "9007199254740991.5", "9007199254740991.0", "0.0000000000000001",
        // 19 and 20 digits, and more.
        "1234567890123456789", "-1234567890123456789", "9223372036854775807", "9223372036854775808",
        "-9223372036854775808", "-9223372036854775809", "12345678901234567890", "18446744073709551615",
        "18446744073709551616", "99999999999999999999", "123456789012345678901234567890",
        // Each width's limits.
        "127", "128", "-128", "-129", "255", "256", "-1", "32767", "32768", "-32768", "-32769", "65535",
        "65536", "2147483647", "2147483648", "-2147483648", "-2147483649", "4294967295", "4294967296",
        // Significands past 128 bits, which Foundation's `Decimal` parser drops.
        "1000000000000000000000000000000000000000000001e-29", "100000000000000000000000000000000000000e-22",
        "340282366920938463463374607431768211455e-22", "340282366920938463463374607431768211456e-22",
        // `Double` and `Float` out of range, underflows, subnormals.
        "1e400", "-1e400", "1E400", "1e-400", "-1e-400", "1e308", "1.7976931348623157e308",
        "1.7976931348623159e308", "4.9e-324", "2e-324", "3e-324", "0.\(String(repeating: "0", count: 400))1",
        "1e39", "3.4028235e38", "3.4028236e38", "3.40282356e38", "1e-45", "1e-46", "1.4e-45", "7e-46", "0.1",
        "1\(String(repeating: "0", count: 40)).5", "73.433", "-0.000001",
    ]

    /// `number` read as `T` in an object, in an array and under a probing type.
    static func compare<T: Decodable & Equatable>(
        _ type: T.Type, _ number: String, sourceLocation: SourceLocation = #_sourceLocation
    ) -> [Differential.FastOutcome] {
        [
            Differential.compare(Box<T>.self, json(#"{"n": \#(number)}"#), sourceLocation: sourceLocation),
            Differential.compare([T].self, json("[1, \(number)]"), sourceLocation: sourceLocation),
            Differential.compare([T?].self, json("[null, \(number)]"), sourceLocation: sourceLocation),
            Differential.compare(
                [Caught<T>].self, json(#"[{"n": \#(number)}, \#(number)]"#), sourceLocation: sourceLocation),
        ]
    }

    /// Reads `T` under `try?`, and says what it caught.
    struct Caught<T: Decodable & Equatable>: Decodable, Equatable {
        var value: T?
        var error: String?
        init(from decoder: any Decoder) throws {
            do {
                if let container = try? decoder.container(keyedBy: AnyCodingKey.self) {
                    value = try container.decode(T.self, forKey: AnyCodingKey("n"))
                } else {
                    value = try decoder.singleValueContainer().decode(T.self)
                }
            } catch let error as DecodingError {
                self.error = ErrorShape(error).description
            }
        }
    }

    func expectNoDeferral<T: Decodable & Equatable>(_ type: T.Type, sourceLocation: SourceLocation = #_sourceLocation) {
        for number in Self.numbers {
            let outcomes = Self.compare(type, number, sourceLocation: sourceLocation)
            let onTheFastPath = outcomes.allSatisfy { $0.isOnTheFastPath }
            #expect(onTheFastPath, "\(number) as \(T.self): \(outcomes)", sourceLocation: sourceLocation)
        }
    }

    @Test func signedIntegersReadEveryNumberAsJSONDecoderDoes() {
        expectNoDeferral(Int.self)
        expectNoDeferral(Int8.self)
        expectNoDeferral(Int16.self)
        expectNoDeferral(Int32.self)
        expectNoDeferral(Int64.self)
    }

    @Test func unsignedIntegersReadEveryNumberAsJSONDecoderDoes() {
        expectNoDeferral(UInt.self)
        expectNoDeferral(UInt8.self)
        expectNoDeferral(UInt16.self)
        expectNoDeferral(UInt32.self)
        expectNoDeferral(UInt64.self)
    }

    @Test func floatingPointReadsEveryNumberAsJSONDecoderDoes() {
        expectNoDeferral(Double.self)
        expectNoDeferral(Float.self)
    }

    @Test func anyJSONValuesAndLosslessValuesReadEveryNumberOnTheFastPath() {
        for number in Self.numbers {
            // A number no type of the enum holds (`1e400`) fails, on the fast path too.
            #expect(Differential.compare(AnyJSON.self, json("[\(number)]")).isOnTheFastPath, "\(number)")
            #expect(Differential.compare([LosslessValue<Int>].self, json("[\(number)]")).isOnTheFastPath)
            #expect(Differential.compare(Prober.self, json(#"{"n": [\#(number)]}"#)) == .decoded, "\(number)")
        }
    }

    /// What Foundation's `JSONDecoder` itself gives, checked directly: the rules the fast path
    /// restates (see ``FoundationNumberRules``).
    @Test func foundationsRulesAreTheOnesTheFastPathFollows() throws {
        func decode<T: Decodable>(_ type: T.Type, _ number: String) -> T? {
            try? JSONDecoder().decode([T].self, from: json("[\(number)]")).first
        }
        #expect(decode(Int8.self, "1e2") == 100)
        #expect(decode(Int.self, "-0") == 0)
        #expect(decode(UInt8.self, "-0.0") == 0)
        #expect(decode(Int.self, "1e-400") == 0)
        #expect(decode(Int.self, "1.0000000000000001") == 1)
        #expect(decode(Int64.self, "9007199254740993.5") == 9_007_199_254_740_993)
        #expect(decode(Int64.self, "9007199254740993.0000") == 9_007_199_254_740_993)
        #expect(decode(Int64.self, "9007199254740993.00000000000000000001") == nil)
        #expect(decode(UInt64.self, "18446744073709551615.9") == nil)
        #expect(decode(Int64.self, "100000000000000000000000000000000000000e-22") == 10_000_000_000_000_000)
        #expect(decode(Int.self, "1.5") == nil)
        #expect(decode(Double.self, "0e1") == nil)
        #expect(decode(Double.self, "0.00e5") == nil)
        #expect(decode(Double.self, "0e12") == 0)
        #expect(decode(Double.self, "0.0e5") == 0)
        #expect(decode(Double.self, "-0.0")?.sign == .minus)
        #expect(decode(Float.self, "1e39") == nil)
        #expect(decode(Double.self, "1e-400") == nil)
    }

    /// The values the fast path gives, on the fast path alone.
    @Test func theFastPathGivesFoundationsValues() throws {
        #expect(
            try PathDecoder().decodeOnFastPath([Int8].self, from: json("[1e2, 1.0, -0, -0.0, 1e-400]")).get()
                == [100, 1, 0, 0, 0])
        #expect(
            try PathDecoder().decodeOnFastPath([Int64].self, from: json("[9007199254740993.5]")).get()
                == [9_007_199_254_740_993])
        #expect(
            try PathDecoder().decodeOnFastPath([UInt64].self, from: json("[1.2345678901234567e19]")).get()
                == [12_345_678_901_234_567_000])
        // 2^64 once converted by `strtod`: not a `UInt64`.
        #expect(Differential.compare([UInt64].self, json("[1.8446744073709551615e19]")) == .failed)
        let zeros = try PathDecoder().decodeOnFastPath([Double].self, from: json("[-0, -0.0, 0e12]")).get()
        #expect(zeros.map(\.sign) == [.minus, .minus, .plus])
    }

    /// A number read as an integer whose `Decimal` form overflows (a fraction of more than 128
    /// digits before the first significant one, an exponent past `Int8` or written above 254) is
    /// refused on the fast path as a number that does not fit: Foundation's decoder stops on a
    /// precondition there (the process ends), so only the fast path is run.
    @Test func aNumberWhoseDecimalFormOverflowsIsRefused() {
        let shapes = [
            "0.\(String(repeating: "0", count: 130))9007199254740993e146",
            "9007199254740993\(String(repeating: "0", count: 300))e-300",
        ]
        for number in shapes {
            let outcome = PathDecoder().decodeOnFastPath([Int64].self, from: json("[\(number)]"))
            guard case .failure(.failed) = outcome else {
                Issue.record("\(number): \(outcome)")
                continue
            }
            // `Double` and narrower integers do not reach Foundation's `Decimal` step.
            #expect(Differential.compare([Double].self, json("[\(number)]")) == .decoded)
            #expect(Differential.compare([Int32].self, json("[\(number)]")) == .failed)
        }
    }
}

extension Differential.FastOutcome {
    /// Whether the fast path returned the value or threw the error itself.
    var isOnTheFastPath: Bool {
        if case .deferred = self { return false }
        return true
    }
}
