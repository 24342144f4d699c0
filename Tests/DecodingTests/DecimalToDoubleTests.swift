import Foundation
import SeededRandom
import Testing

@testable import Decoding

/// The fast path's conversion of decimals of 17 to 19 significant digits (Eisel–Lemire) gives
/// exactly the double `Double(String)` gives (`strtod`, correctly rounded), or declines.
@Suite struct DecimalToDoubleTests {
    /// Each power is ⌊2^k / 10^f⌋ with its top bit at 127: m × 10^f ≤ 2^k < (m + 1) × 10^f.
    @Test func everyPowerIsTheTruncatedSignificandOfItsPowerOfTen() {
        for (f, power) in DecimalToDouble.powers.enumerated() {
            #expect(power.high >> 63 == 1, "1e-\(f) is not normalized")
            var ten: UInt64 = 1
            for _ in 0..<f { ten *= 10 }
            // k = 127 + the bit length of 10^f (127 for f = 0).
            let k = f == 0 ? 127 : 127 + (64 - ten.leadingZeroBitCount)
            let product = Self.multiply(power, by: ten)
            let next = Self.multiply(Self.add(power, 1), by: ten)
            let bound = Self.powerOfTwo(k)
            #expect(Self.lessThanOrEqual(product, bound), "1e-\(f) is rounded up")
            #expect(Self.lessThan(bound, next), "1e-\(f) is not the largest such significand")
        }
    }

    @Test func randomDecimalsConvertAsStrtodDoesOrDecline() {
        var generator = SeededGenerator(seed: 41)
        var declined = 0
        let count = 200_000
        for _ in 0..<count {
            // 17 to 19 significant digits, the fraction anywhere among them.
            let digits = Int.random(in: 17...19, using: &generator)
            var mantissa = UInt64.random(in: 1...9, using: &generator)
            for _ in 1..<digits { mantissa = mantissa * 10 + UInt64.random(in: 0...9, using: &generator) }
            let fraction = Int.random(in: 0...digits, using: &generator)
            if check(mantissa, fraction) == nil { declined += 1 }
        }
        // Declining is for decimals a double holds exactly or halfway between two (strtod then
        // converts them): here about 1 in 120, where a mantissa divisible by 5^f is common; in
        // measured data (coordinates, prices) rarer still.
        #expect(declined < count / 50, "\(declined) of \(count) declined")
    }

    @Test func edgesConvertAsStrtodDoesOrDecline() {
        var mantissas: [UInt64] = [
            1 << 53 + 1, 1 << 53 + 2, 1 << 53 + 3, 1 << 54 - 1, 1 << 54 + 1, 1 << 63, 1 << 63 + 1,
            9_999_999_999_999_999_999, 10_000_000_000_000_000_000 - 1, 1_000_000_000_000_000_000,
            18_014_398_509_481_985, 9_007_199_254_740_993, 4_503_599_627_370_497_000,
        ]
        // Decimals exactly halfway between two doubles, and one unit either side.
        for exponent in 54...63 {
            let halfway = (UInt64(1) << UInt64(exponent)) + (UInt64(1) << UInt64(exponent - 53))
            mantissas += [halfway - 1, halfway, halfway + 1]
        }
        for mantissa in mantissas {
            for fraction in 0...19 { _ = check(mantissa, fraction) }
        }
    }

    @Test func coordinatesDecodeAsJSONDecoderDecodesThem() throws {
        var generator = SeededGenerator(seed: 7)
        var texts: [String] = []
        for _ in 0..<5_000 {
            let whole = Int.random(in: -180...180, using: &generator)
            var fraction = ""
            for _ in 0..<Int.random(in: 12...16, using: &generator) {
                fraction += String(Int.random(in: 0...9, using: &generator))
            }
            texts.append("\(whole).\(fraction)")
        }
        let json = Data(("[" + texts.joined(separator: ",") + "]").utf8)
        let ours = try PathDecoder().decode([Double].self, from: json)
        let foundation = try JSONDecoder().decode([Double].self, from: json)
        #expect(ours.map(\.bitPattern) == foundation.map(\.bitPattern))
    }

    /// Converts `mantissa × 10^-fraction` and compares with `Double(String)`; the result, or nil
    /// when the method declined.
    @discardableResult
    private func check(_ mantissa: UInt64, _ fraction: Int) -> Double? {
        for negative in [false, true] {
            let converted = DecimalToDouble.convert(mantissa, fractionDigits: fraction, negative: negative)
            var text = String(mantissa)
            if fraction > 0 {
                if text.count <= fraction { text = String(repeating: "0", count: fraction - text.count + 1) + text }
                text.insert(".", at: text.index(text.endIndex, offsetBy: -fraction))
            }
            if negative { text = "-" + text }
            guard let converted else { continue }
            #expect(converted.bitPattern == Double(text)?.bitPattern, "\(text): \(converted)")
        }
        return DecimalToDouble.convert(mantissa, fractionDigits: fraction, negative: false)
    }

    // Three-word unsigned arithmetic, little end first, for the table check.
    private typealias Words = (UInt64, UInt64, UInt64)

    private static func multiply(_ value: (high: UInt64, low: UInt64), by factor: UInt64) -> Words {
        let low = value.low.multipliedFullWidth(by: factor)
        let high = value.high.multipliedFullWidth(by: factor)
        let (middle, carry) = low.high.addingReportingOverflow(high.low)
        return (low.low, middle, high.high &+ (carry ? 1 : 0))
    }

    private static func add(_ value: (high: UInt64, low: UInt64), _ amount: UInt64) -> (high: UInt64, low: UInt64) {
        let (low, carry) = value.low.addingReportingOverflow(amount)
        return (value.high &+ (carry ? 1 : 0), low)
    }

    private static func powerOfTwo(_ k: Int) -> Words {
        switch k {
        case 0..<64: (1 << UInt64(k), 0, 0)
        case 64..<128: (0, 1 << UInt64(k - 64), 0)
        default: (0, 0, 1 << UInt64(k - 128))
        }
    }

    private static func lessThan(_ a: Words, _ b: Words) -> Bool {
        (a.2, a.1, a.0) < (b.2, b.1, b.0)
    }

    private static func lessThanOrEqual(_ a: Words, _ b: Words) -> Bool { !lessThan(b, a) }
}
