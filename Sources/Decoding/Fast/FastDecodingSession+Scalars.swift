#if canImport(Glibc)
    import Glibc
#endif

/// Scalars read as `JSONDecoder` reads them, or not at all.
///
/// Each conversion gives exactly the value Foundation's decoder gives for the same text, or
/// throws the `DecodingError` it throws for a value of another kind (null included; see
/// ``FastDecodingSession/scalarMismatch(_:at:_:_:nullIsMismatch:)``), or, for a number the
/// fast path does not convert (see ``FastDeferral/Reason/number``), records and throws a
/// ``FastDeferral``. `parent` and `component` spell the value's coding path, made only for
/// an error.
extension FastDecodingSession {
    /// The string at `index`.
    func string(
        at index: Int, _ parent: CodingPathNode?, _ component: CodingPathNode.Component?
    ) throws -> String {
        try checkNotDeferred()
        let node = nodes[index]
        guard node.kind == .string else { throw scalarMismatch(String.self, at: index, parent, component) }
        return bytes.withUnsafeBufferPointer { JSONText.string(of: node, in: $0) }
    }

    /// The boolean at `index`.
    func bool(at index: Int, _ parent: CodingPathNode?, _ component: CodingPathNode.Component?) throws -> Bool {
        try checkNotDeferred()
        switch nodes[index].kind {
        case .true: return true
        case .false: return false
        default: throw scalarMismatch(Bool.self, at: index, parent, component, nullIsMismatch: true)
        }
    }

    /// The integer at `index`: only plain digits (no fraction or exponent, no `-0`), at most 18
    /// of them, within `T`'s range.
    func integer<T: FixedWidthInteger>(
        _ type: T.Type, at index: Int, _ parent: CodingPathNode?, _ component: CodingPathNode.Component?
    ) throws -> T {
        try checkNotDeferred()
        let node = nodes[index]
        guard node.kind == .number else { throw scalarMismatch(T.self, at: index, parent, component) }
        guard node.has(JSONNode.numberIsInteger), let value = smallInteger(node), let result = T(exactly: value)
        else { throw integerMisfit(T.self, node, parent, component) }
        return result
    }

    /// The error for a number `integer(_:at:_:_:)` does not read: the path-aware containers'
    /// error for a number `JSONDecoder` refuses as `T` (see ``NumberFit``), for a plain integer
    /// of at most 18 digits out of `T`'s range or a fraction whose value is not whole, as
    /// `strtod` reads it; a ``FastDeferral`` for any other number, which `JSONDecoder` may
    /// still read (`1e2`, `1.0`, `-0`) or read only approximately (more digits).
    private func integerMisfit<T: FixedWidthInteger>(
        _ type: T.Type, _ node: JSONNode, _ parent: CodingPathNode?, _ component: CodingPathNode.Component?
    ) -> any Error {
        if node.has(JSONNode.numberIsInteger) {
            guard smallInteger(node) != nil else { return fail(.number) }
        } else {
            guard !node.has(JSONNode.numberHasExponent), let value = Double(text(of: node)), value.isFinite,
                value.rounded(.towardZero) != value
            else { return fail(.number) }
        }
        return DecodingError.dataCorrupted(
            DecodingError.Context(
                codingPath: Self.numberFitPath(parent, component),
                debugDescription: NumberFit.message(number: text(of: node), type: T.self)))
    }

    /// The coding path the path-aware containers give a number that does not fit: an unkeyed
    /// container's element (`component` an index) as `AnyCodingKey(intValue:)`, a value of a
    /// single-value container (`component` nil) at its own path.
    private static func numberFitPath(
        _ parent: CodingPathNode?, _ component: CodingPathNode.Component?
    ) -> [any CodingKey] {
        guard case .index(let position)? = component else { return codingPath(parent, component) }
        return CodingPathNode.codingPath(parent) + [AnyCodingKey(intValue: position)]
    }

    /// The `Double` at `index`, as `strtod` reads it: no exponent, finite, and zero only when
    /// written as a positive zero.
    func double(at index: Int, _ parent: CodingPathNode?, _ component: CodingPathNode.Component?) throws -> Double {
        try checkNotDeferred()
        let node = nodes[index]
        guard node.kind == .number else { throw notANumber(Double.self, at: index, parent, component) }
        guard !node.has(JSONNode.numberHasExponent) else { throw fail(.number) }
        if let value = exactDecimal(node) { return value }
        guard let value = parsedDouble(node) else { throw fail(.number) }
        try checkFloatingPoint(value.isFinite, isZero: value == 0, node)
        return value
    }

    /// The number's text converted as `Double(String)` converts it (`strtod` in the C locale),
    /// without making a `String` first (which allocates for a text of more than 15 bytes; this
    /// saves about 320 instructions a number on `canada.json`). The text is a JSON
    /// number without exponent (digits, a sign, a point), so `strtod` reads it as the C locale
    /// does unless the process's locale spells the decimal point otherwise; then it stops before
    /// the end, and the `String` route converts it.
    private func parsedDouble(_ node: JSONNode) -> Double? {
        #if canImport(Glibc)
            let start = Int(node.start)
            let length = Int(node.length)
            guard length < 128, start + length <= bytes.count else {
                return Double(text(of: node))
            }
            return withUnsafeTemporaryAllocation(of: CChar.self, capacity: length + 1) { buffer -> Double? in
                guard let base = buffer.baseAddress else { return nil }
                for offset in 0..<length { base[offset] = CChar(bitPattern: bytes[start + offset]) }
                base[length] = 0
                var end: UnsafeMutablePointer<CChar>?
                let value = strtod(base, &end)
                return end == base + length ? value : nil
            } ?? Double(text(of: node))
        #else
            return Double(text(of: node))
        #endif
    }

    /// The `Float` at `index`, as `strtof` reads it, under the same rules as ``double(at:_:_:)``.
    func float(at index: Int, _ parent: CodingPathNode?, _ component: CodingPathNode.Component?) throws -> Float {
        try checkNotDeferred()
        let node = nodes[index]
        guard node.kind == .number else { throw notANumber(Float.self, at: index, parent, component) }
        guard !node.has(JSONNode.numberHasExponent) else { throw fail(.number) }
        guard let value = Float(text(of: node)) else { throw fail(.number) }
        try checkFloatingPoint(value.isFinite, isZero: value == 0, node)
        return value
    }

    /// The error for a floating-point value asked of something that is not a number; a string
    /// under a `nonConformingFloatDecodingStrategy` that reads strings is left to `JSONDecoder`.
    private func notANumber(
        _ type: Any.Type, at index: Int, _ parent: CodingPathNode?, _ component: CodingPathNode.Component?
    ) -> any Error {
        if floatsMayBeStrings && nodes[index].kind == .string { return fail(.settings) }
        return scalarMismatch(type, at: index, parent, component)
    }

    /// Foundation refuses infinite results and zeros from digits that are not all zero; a
    /// negative zero is left to it.
    private func checkFloatingPoint(_ isFinite: Bool, isZero: Bool, _ node: JSONNode) throws(FastDeferral) {
        guard isFinite else { throw fail(.number) }
        guard isZero else { return }
        guard !node.has(JSONNode.numberIsNegative), isAllZeros(node) else { throw fail(.number) }
    }

    /// The correctly rounded value of a number without exponent of at most 19 digits (the
    /// value `strtod` gives), or nil for other numbers, for zeros, and in the rare case the
    /// conversion cannot decide (then `strtod` converts it).
    ///
    /// Digits that read as an integer within 2^53 are divided by the power of ten of the
    /// fraction (at most 10^19): both are exact doubles, so the quotient is correctly rounded.
    /// Larger integers (17 to 19 significant digits, as most of Canada's coordinates) go through
    /// ``DecimalToDouble/convert(_:fractionDigits:negative:)``.
    private func exactDecimal(_ node: JSONNode) -> Double? {
        var position = Int(node.start) + (node.has(JSONNode.numberIsNegative) ? 1 : 0)
        let end = Int(node.start) + Int(node.length)
        guard end - position <= 20 else { return nil }
        var mantissa: UInt64 = 0
        var fractionDigits = -1
        var digits = 0
        while position < end {
            let byte = bytes[position]
            if byte == UInt8(ascii: ".") {
                fractionDigits = 0
            } else {
                mantissa = mantissa &* 10 &+ UInt64(byte &- UInt8(ascii: "0"))
                digits += 1
                if fractionDigits >= 0 { fractionDigits += 1 }
            }
            position += 1
        }
        guard mantissa != 0, digits <= 19 else { return nil }
        let negative = node.has(JSONNode.numberIsNegative)
        let fraction = max(fractionDigits, 0)
        guard mantissa <= 1 << 53 else {
            return DecimalToDouble.convert(mantissa, fractionDigits: fraction, negative: negative)
        }
        let value = Double(mantissa) / Self.powersOfTen[fraction]
        return negative ? -value : value
    }

    /// 10^0 through 10^22, every one an exact double.
    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18,
        1e19, 1e20, 1e21, 1e22,
    ]

    /// The number's text.
    private func text(of node: JSONNode) -> String {
        bytes.withUnsafeBufferPointer { text in
            let start = Int(node.start)
            return String(
                decoding: UnsafeBufferPointer(rebasing: text[start..<start + Int(node.length)]), as: UTF8.self)
        }
    }

    /// Whether every digit of the number (which has no exponent) is zero.
    private func isAllZeros(_ node: JSONNode) -> Bool {
        let start = Int(node.start)
        return bytes[start..<start + Int(node.length)].allSatisfy {
            $0 == UInt8(ascii: "0") || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-")
        }
    }

    /// The value of an integer number of at most 18 digits; nil for more digits or `-0`.
    private func smallInteger(_ node: JSONNode) -> Int64? {
        let negative = node.has(JSONNode.numberIsNegative)
        let digitCount = Int(node.length) - (negative ? 1 : 0)
        guard digitCount <= 18 else { return nil }
        var value: Int64 = 0
        var position = Int(node.start) + (negative ? 1 : 0)
        let end = Int(node.start) + Int(node.length)
        while position < end {
            value = value * 10 + Int64(bytes[position] &- UInt8(ascii: "0"))
            position += 1
        }
        if negative {
            guard value != 0 else { return nil }
            return -value
        }
        return value
    }
}
