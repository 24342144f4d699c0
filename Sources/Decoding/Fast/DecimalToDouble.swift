/// The correctly rounded `Double` nearest a decimal `m × 10^-f` (`m` < 2^64, `f` ≤ 19): the
/// Eisel–Lemire method (Daniel Lemire, "Number Parsing at a Gigabyte per Second", 2021). `m`
/// is normalized and multiplied by a 128-bit truncation of 10^-f; the top 54 bits of the
/// product give the result and its rounding bit. When the bits the truncation leaves out could
/// change that result, or the decimal lies exactly halfway between two doubles, the method does
/// not decide, and the caller converts the text with `strtod`.
enum DecimalToDouble {
    /// The nearest `Double` to `mantissa × 10^-fractionDigits`, negated when `negative`; nil
    /// when the method cannot decide, for a zero mantissa, or for more than 19 fraction digits.
    static func convert(_ mantissa: UInt64, fractionDigits: Int, negative: Bool) -> Double? {
        guard mantissa != 0, fractionDigits >= 0, fractionDigits < powers.count else { return nil }
        let power = powers[fractionDigits]
        let exponent10 = -fractionDigits
        // The mantissa with its top bit set, and the binary exponent that goes with it:
        // ⌊log2(10) × 2^16⌋ = 217706; 1023 is the exponent bias.
        let leadingZeros = mantissa.leadingZeroBitCount
        let normalized = mantissa << UInt64(leadingZeros)
        var exponent2 = ((217_706 &* exponent10) >> 16) + 64 + 1023 - leadingZeros
        var (high, low) = normalized.multipliedFullWidth(by: power.high)
        // The low word of the power matters only when the product's discarded bits are all ones.
        if high & 0x1FF == 0x1FF, low &+ normalized < low {
            let (carry, lowest) = normalized.multipliedFullWidth(by: power.low)
            let (sum, overflow) = low.addingReportingOverflow(carry)
            if overflow { high &+= 1 }
            low = sum
            if high & 0x1FF == 0x1FF, low == .max, lowest &+ normalized < lowest { return nil }
        }
        // The top 54 bits: 53 of the result and one to round with.
        let topBit = high >> 63
        var significand = high >> (topBit + 9)
        exponent2 -= Int(1 ^ topBit)
        // Exactly halfway between two doubles: round-to-even needs the exact value.
        if low == 0, high & 0x1FF == 0, significand & 3 == 1 { return nil }
        significand += significand & 1
        significand >>= 1
        if significand >> 53 > 0 {
            significand >>= 1
            exponent2 += 1
        }
        // Subnormal, infinite or not a number: not for this method (and not reached with ≤ 19 digits).
        guard exponent2 > 0, exponent2 < 0x7FF else { return nil }
        let bits = UInt64(exponent2) << 52 | (significand & 0x000F_FFFF_FFFF_FFFF)
        return Double(bitPattern: negative ? bits | 1 << 63 : bits)
    }

    /// 10^-f for f = 0...19 as 128-bit significands (top bit set), truncated: (high, low) words.
    /// `Scripts/decimal-powers.py` prints them; `DecimalToDoubleTests` checks each against exact
    /// arithmetic.
    static let powers: [(high: UInt64, low: UInt64)] = [
        (0x8000000000000000, 0x0000000000000000),  // 1e-0
        (0xCCCCCCCCCCCCCCCC, 0xCCCCCCCCCCCCCCCC),  // 1e-1
        (0xA3D70A3D70A3D70A, 0x3D70A3D70A3D70A3),  // 1e-2
        (0x83126E978D4FDF3B, 0x645A1CAC083126E9),  // 1e-3
        (0xD1B71758E219652B, 0xD3C36113404EA4A8),  // 1e-4
        (0xA7C5AC471B478423, 0x0FCF80DC33721D53),  // 1e-5
        (0x8637BD05AF6C69B5, 0xA63F9A49C2C1B10F),  // 1e-6
        (0xD6BF94D5E57A42BC, 0x3D32907604691B4C),  // 1e-7
        (0xABCC77118461CEFC, 0xFDC20D2B36BA7C3D),  // 1e-8
        (0x89705F4136B4A597, 0x31680A88F8953030),  // 1e-9
        (0xDBE6FECEBDEDD5BE, 0xB573440E5A884D1B),  // 1e-10
        (0xAFEBFF0BCB24AAFE, 0xF78F69A51539D748),  // 1e-11
        (0x8CBCCC096F5088CB, 0xF93F87B7442E45D3),  // 1e-12
        (0xE12E13424BB40E13, 0x2865A5F206B06FB9),  // 1e-13
        (0xB424DC35095CD80F, 0x538484C19EF38C94),  // 1e-14
        (0x901D7CF73AB0ACD9, 0x0F9D37014BF60A10),  // 1e-15
        (0xE69594BEC44DE15B, 0x4C2EBE687989A9B3),  // 1e-16
        (0xB877AA3236A4B449, 0x09BEFEB9FAD487C2),  // 1e-17
        (0x9392EE8E921D5D07, 0x3AFF322E62439FCF),  // 1e-18
        (0xEC1E4A7DB69561A5, 0x2B31E9E3D06C32E5),  // 1e-19
    ]
}
