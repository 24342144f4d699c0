import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The rules by which Foundation's `JSONDecoder` (swift-foundation, as in Swift 6.3) turns the
/// text of a JSON number into an integer or a floating-point value, restated over the bytes of
/// the number so that the fast path gives the same value, or refuses the same numbers.
///
/// An integer type reads a number in three steps:
/// 1. digits only (a sign allowed) are read as the type, stopping at an overflow (`-0` is 0);
/// 2. otherwise the text is converted as `strtod` converts it: a result that is not exactly a
///    value of the type is refused; a result below 2^53 in magnitude is the value (so `1e2` is
///    100, `1.0` is 1, `1e-400` is 0, and `1.0000000000000001`, which rounds to 1, is 1);
/// 3. otherwise (only 64-bit types get here) the text is read as Foundation's `Decimal` parser
///    reads it, at most 128 bits of significand, trailing zeros dropped, and the significand,
///    when it fits 64 bits, is scaled by the power of ten with the fraction truncated.
///
/// A floating-point type reads the number with `strtod` (`strtof` for `Float`) and refuses an
/// infinite result, and a zero unless the text's digits are zeros (see ``isTrueZero(_:)``).
enum FoundationNumberRules {
    /// What reading a number as an integer type gives.
    enum IntegerReading<T> {
        /// The value `JSONDecoder` gives.
        case value(T)
        /// `JSONDecoder` refuses the number as the type.
        case doesNotFit
        /// The number's `Decimal` form overflows (an exponent beyond what `Decimal` holds):
        /// `JSONDecoder` stops on a precondition; the fast path refuses the number as one that
        /// does not fit.
        case decimalOverflow
    }

    /// The number whose text is `text` read as `T`, as `JSONDecoder` reads it.
    static func integer<T: FixedWidthInteger>(_ type: T.Type, text: UnsafeBufferPointer<UInt8>) -> IntegerReading<T> {
        if let value: T = digitsOnly(text) { return .value(value) }
        guard let double = strtodValue(text) else { return .decimalOverflow }
        guard let value = T(exactly: double) else { return .doesNotFit }
        if double.magnitude < 0x1p53 { return .value(value) }
        guard let decimal = DecimalForm(text) else { return .decimalOverflow }
        guard let truncated: T = decimal.truncated() else { return .doesNotFit }
        return .value(truncated)
    }

    /// The first number in `json` (outside strings) on which Foundation's decoder stops the
    /// process when it reads it as a 64-bit integer: an integral value from 2^53 up to 2^64 in
    /// magnitude, not written in digits only, whose `Decimal` form overflows. Nil when there is
    /// none. The text need not be valid JSON: bytes that are not a number are skipped.
    static func firstNumberFoundationStopsOn(in json: UnsafeBufferPointer<UInt8>) -> String? {
        var position = 0
        var inString = false
        while position < json.count {
            let byte = json[position]
            if inString {
                if byte == UInt8(ascii: "\\") {
                    position += 2
                    continue
                }
                if byte == UInt8(ascii: "\"") { inString = false }
                position += 1
                continue
            }
            guard byte == UInt8(ascii: "-") || (byte &- UInt8(ascii: "0")) < 10 else {
                if byte == UInt8(ascii: "\"") { inString = true }
                position += 1
                continue
            }
            let start = position
            position += 1
            var digitsOnly = true
            while position < json.count {
                let next = json[position]
                position += 1
                if (next &- UInt8(ascii: "0")) < 10 { continue }
                guard
                    next == UInt8(ascii: ".") || next | 0x20 == UInt8(ascii: "e") || next == UInt8(ascii: "+")
                        || next == UInt8(ascii: "-")
                else {
                    position -= 1
                    break
                }
                digitsOnly = false
            }
            let text = UnsafeBufferPointer(rebasing: json[start..<position])
            // Digits alone are read without `Decimal`; a text `strtod` does not read whole is no
            // number (the document is not JSON, which Foundation refuses before reading values).
            guard !digitsOnly, strtodValue(text) != nil else { continue }
            let stops: Bool
            if text.first == UInt8(ascii: "-") {
                if case .decimalOverflow = integer(Int64.self, text: text) { stops = true } else { stops = false }
            } else {
                if case .decimalOverflow = integer(UInt64.self, text: text) { stops = true } else { stops = false }
            }
            if stops { return String(decoding: text, as: UTF8.self) }
        }
        return nil
    }

    /// Step 1: a text of digits (after an optional `-`) read as `T`, digit by digit, as
    /// Foundation's integer parser does; nil when it has another character or overflows.
    static func digitsOnly<T: FixedWidthInteger>(_ text: UnsafeBufferPointer<UInt8>) -> T? {
        guard !text.isEmpty else { return nil }
        let negative = text[0] == UInt8(ascii: "-")
        var position = negative ? 1 : 0
        guard position < text.count else { return nil }
        var result: T = 0
        while position < text.count {
            let digit = text[position] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            let (shifted, overflowShift) = result.multipliedReportingOverflow(by: 10)
            let (next, overflowAdd) =
                negative
                ? shifted.subtractingReportingOverflow(T(truncatingIfNeeded: digit))
                : shifted.addingReportingOverflow(T(truncatingIfNeeded: digit))
            guard !overflowShift && !overflowAdd else { return nil }
            result = next
            position += 1
        }
        return result
    }

    /// The text converted by the C library's `strtod`, which Foundation calls, or by
    /// `Double(String)` (also correctly rounded) when `strtod` does not read it to the end (a
    /// process locale with another decimal point). Nil only if neither reads a JSON number.
    static func strtodValue(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        withCString(text) { strtod($0, $1) } ?? Double(String(decoding: text, as: UTF8.self))
    }

    /// The text converted by `strtof`, as ``strtodValue(_:)``.
    static func strtofValue(_ text: UnsafeBufferPointer<UInt8>) -> Float? {
        withCString(text) { strtof($0, $1) } ?? Float(String(decoding: text, as: UTF8.self))
    }

    /// Calls `convert` with a NUL-terminated copy of `text`; nil when the conversion does not
    /// stop at the end of the text, or the text is too long to copy on the stack.
    private static func withCString<R>(
        _ text: UnsafeBufferPointer<UInt8>,
        _ convert: (UnsafePointer<CChar>, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> R
    ) -> R? {
        let length = text.count
        guard length < 128 else { return nil }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: length + 1) { buffer -> R? in
            guard let base = buffer.baseAddress else { return nil }
            for offset in 0..<length { base[offset] = CChar(bitPattern: text[offset]) }
            base[length] = 0
            var end: UnsafeMutablePointer<CChar>?
            let value = convert(base, &end)
            return end == base + length ? value : nil
        }
    }

    /// Whether Foundation takes a zero converted from `text` for a true zero rather than an
    /// underflow.
    ///
    /// Foundation scans the text in groups of four bytes, front to back, for a nonzero digit
    /// (an underflow) or an `e` (a zero: the digits before it were zeros); the last one to
    /// three bytes it scans back to front, so an exponent's digit there is seen before the
    /// `e`: `0e1` and `0.00e5` are refused, `0e12` and `0.0e5` are zeros.
    static func isTrueZero(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        func verdict(_ byte: UInt8) -> Bool? {
            switch byte {
            case UInt8(ascii: "1")...UInt8(ascii: "9"): return false
            case UInt8(ascii: "e"), UInt8(ascii: "E"): return true
            default: return nil
            }
        }
        var start = 0
        while text.count - start >= 4 {
            for offset in start..<start + 4 {
                if let answer = verdict(text[offset]) { return answer }
            }
            start += 4
        }
        for offset in (start..<text.count).reversed() {
            if let answer = verdict(text[offset]) { return answer }
        }
        return true
    }
}

/// A number as Foundation's `Decimal` parser reads it: a significand of at most 128 bits, the
/// digits past them dropped (counted in the exponent when they come before the point), and a
/// decimal exponent within `Int8`; trailing zeros of the significand moved to the exponent.
struct DecimalForm: Equatable {
    /// The significand's high and low 64 bits.
    var high: UInt64
    var low: UInt64
    var exponent: Int
    var negative: Bool

    /// The form of a JSON number's text, or nil where the parser reports an overflow (an
    /// exponent that leaves `Int8`, or an exponent written above 254).
    init?(_ text: UnsafeBufferPointer<UInt8>) {
        (high, low, exponent, negative) = (0, 0, 0, false)
        var position = 0
        if position < text.count && text[position] == UInt8(ascii: "-") {
            negative = true
            position += 1
        }
        var tooBig = false
        while position < text.count, let digit = Self.digit(text[position]) {
            if tooBig || !timesTenPlus(digit) {
                tooBig = true
                guard exponent < Int(Int8.max) else { return nil }
                exponent += 1
            }
            position += 1
        }
        if position < text.count && text[position] == UInt8(ascii: ".") {
            position += 1
            while position < text.count, let digit = Self.digit(text[position]) {
                position += 1
                if tooBig { continue }
                guard timesTenPlus(digit) else {
                    tooBig = true
                    continue
                }
                guard exponent > Int(Int8.min) else { return nil }
                exponent -= 1
            }
        }
        if position < text.count && (text[position] | 0x20) == UInt8(ascii: "e") {
            position += 1
            var exponentIsNegative = false
            if position < text.count && (text[position] == UInt8(ascii: "-") || text[position] == UInt8(ascii: "+")) {
                exponentIsNegative = text[position] == UInt8(ascii: "-")
                position += 1
            }
            var written = 0
            while position < text.count, let digit = Self.digit(text[position]) {
                written = written * 10 + Int(digit)
                guard written <= 2 * Int(Int8.max) else { return nil }
                position += 1
            }
            let total = exponent + (exponentIsNegative ? -written : written)
            guard total >= Int(Int8.min) && total <= Int(Int8.max) else { return nil }
            exponent = total
        }
        compact()
    }

    private static func digit(_ byte: UInt8) -> UInt64? {
        let value = byte &- UInt8(ascii: "0")
        return value < 10 ? UInt64(value) : nil
    }

    /// The significand times ten plus `digit`; false, and the significand unchanged, when the
    /// result needs more than 128 bits.
    private mutating func timesTenPlus(_ digit: UInt64) -> Bool {
        let (highTimesTen, highOverflow) = high.multipliedReportingOverflow(by: 10)
        guard !highOverflow else { return false }
        let lowTimesTen = low.multipliedFullWidth(by: 10)
        let (newLow, carry) = lowTimesTen.low.addingReportingOverflow(digit)
        let (partialHigh, overflowOne) = highTimesTen.addingReportingOverflow(lowTimesTen.high)
        let (newHigh, overflowTwo) = partialHigh.addingReportingOverflow(carry ? 1 : 0)
        guard !overflowOne && !overflowTwo else { return false }
        (high, low) = (newHigh, newLow)
        return true
    }

    /// The significand divided by ten, and the remainder.
    private func dividedByTen() -> (high: UInt64, low: UInt64, remainder: UInt64) {
        let (quotientHigh, remainderHigh) = high.quotientAndRemainder(dividingBy: 10)
        let (quotientLow, remainder) = UInt64(10).dividingFullWidth((remainderHigh, low))
        return (quotientHigh, quotientLow, remainder)
    }

    /// Drops the significand's trailing zeros into the exponent, as `Decimal`'s `compact()`
    /// does; a zero keeps its exponent, and a negative zero (`Decimal`'s NaN) is the parser's
    /// plain zero.
    private mutating func compact() {
        guard high != 0 || low != 0 else {
            if negative { (exponent, negative) = (0, false) }
            return
        }
        while true {
            let divided = dividedByTen()
            guard divided.remainder == 0 else { break }
            (high, low) = (divided.high, divided.low)
            exponent += 1
        }
        while exponent > Int(Int8.max) {
            _ = timesTenPlus(0)
            exponent -= 1
        }
    }

    /// The value as Foundation converts a `Decimal` to `T`: the significand must fit 64 bits,
    /// a negative exponent truncates, a positive one must not overflow, and the result must be
    /// a value of `T`.
    func truncated<T: FixedWidthInteger>() -> T? {
        if negative && !T.isSigned { return nil }
        guard high == 0 else { return nil }
        var magnitude = low
        if exponent < 0 {
            for _ in 0..<(-exponent) where magnitude != 0 { magnitude /= 10 }
        } else {
            for _ in 0..<exponent {
                let (product, overflow) = magnitude.multipliedReportingOverflow(by: 10)
                guard !overflow else { return nil }
                magnitude = product
            }
        }
        guard let value = T(exactly: magnitude) else { return nil }
        return negative ? 0 - value : value
    }
}

/// How `JSONDecoder` tells a document's Unicode encoding (RFC 4627: a byte-order mark, or where
/// the NUL bytes of the first four bytes fall), for reading the document as it does.
enum JSONEncodingForm {
    /// `data` converted to UTF-8 when it is UTF-16 or UTF-32; nil when it is UTF-8 already (or
    /// cannot be converted, which `JSONDecoder` refuses too).
    static func utf8(of data: Data) -> Data? {
        let head = Array(data.prefix(4))
        guard head.count >= 2 else { return nil }
        let encoding: String.Encoding
        switch (head.count >= 4 ? (head[0], head[1], head[2], head[3]) : (head[0], head[1], 1, 1)) {
        case (0, 0, 0xFE, 0xFF), (0, 0, 0, _): encoding = .utf32BigEndian
        case (0xFF, 0xFE, 0, 0), (_, 0, 0, 0): encoding = .utf32LittleEndian
        case (0xFE, 0xFF, _, _), (0, _, _, _): encoding = .utf16BigEndian
        case (0xFF, 0xFE, _, _), (_, 0, _, _): encoding = .utf16LittleEndian
        default: return nil
        }
        guard var text = String(data: data, encoding: encoding) else { return nil }
        if text.first == "\u{FEFF}" { text.removeFirst() }
        return Data(text.utf8)
    }
}
