/// Scalars read as `JSONDecoder` reads them, or not at all.
///
/// Each conversion gives exactly the value Foundation's decoder gives for the same text, or
/// throws the `DecodingError` it throws for a value of another kind (null included; see
/// ``FastDecodingSession/scalarMismatch(_:at:_:_:nullIsMismatch:)``) or for a number the type
/// cannot hold (as the path-aware containers name it, see ``NumberFit``). Numbers follow
/// Foundation's own rules (``FoundationNumberRules``); a number whose `Decimal` form overflows,
/// read as a 64-bit integer (on which Foundation's decoder stops the process), is refused as a
/// number that does not fit. `parent` and `component` spell the value's coding path, made only
/// for an error.
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

    /// The integer at `index`, as `JSONDecoder` reads it (see ``FoundationNumberRules``): plain
    /// digits of at most 18 digits directly, any other number by Foundation's rules.
    func integer<T: FixedWidthInteger>(
        _ type: T.Type, at index: Int, _ parent: CodingPathNode?, _ component: CodingPathNode.Component?
    ) throws -> T {
        try checkNotDeferred()
        let node = nodes[index]
        guard node.kind == .number else { throw scalarMismatch(T.self, at: index, parent, component) }
        // A plain integer of at most 18 digits that `T` cannot hold is refused by each of
        // Foundation's steps: `strtod` gives a value out of `T`'s range too.
        if node.has(JSONNode.numberIsInteger), let value = smallInteger(node) {
            guard let result = T(exactly: value) else { throw numberMisfit(T.self, node, parent, component) }
            return result
        }
        // A decimal without exponent that the exact conversion reads below 2^53 (a fraction,
        // as an any-JSON enum probes every number as an integer first): Foundation's step 2
        // on the value `strtod` gives, without `strtod`.
        if !node.has(JSONNode.numberIsInteger), !node.has(JSONNode.numberHasExponent), let value = exactDecimal(node),
            value.magnitude < 0x1p53
        {
            guard let result = T(exactly: value) else { throw numberMisfit(T.self, node, parent, component) }
            return result
        }
        return try integerByFoundationRules(T.self, node, parent, component)
    }

    /// The integer of any other number (a fraction, an exponent, more digits).
    @inline(never)
    private func integerByFoundationRules<T: FixedWidthInteger>(
        _ type: T.Type, _ node: JSONNode, _ parent: CodingPathNode?, _ component: CodingPathNode.Component?
    ) throws -> T {
        let reading = withText(of: node) { FoundationNumberRules.integer(T.self, text: $0) }
        switch reading {
        case .value(let value): return value
        case .doesNotFit: throw numberMisfit(T.self, node, parent, component)
        // Foundation's decoder stops on a precondition here (its `Decimal` overflows); a
        // number `T` cannot hold is refused instead, never a crash.
        case .decimalOverflow: throw numberMisfit(T.self, node, parent, component)
        }
    }

    /// The error the path-aware containers throw for a number `JSONDecoder` refuses as `type`
    /// (see ``NumberFit``).
    private func numberMisfit(
        _ type: Any.Type, _ node: JSONNode, _ parent: CodingPathNode?, _ component: CodingPathNode.Component?
    ) -> DecodingError {
        DecodingError.dataCorrupted(
            DecodingError.Context(
                codingPath: Self.numberFitPath(parent, component),
                debugDescription: NumberFit.message(number: text(of: node), type: type)))
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

    /// The `Double` at `index`, as `JSONDecoder` reads it: as `strtod` converts the text,
    /// refusing an infinite result and a zero that Foundation takes for an underflow. The error
    /// for a number it refuses names `type` (`Date` for a date read from its `Double`).
    func double(
        at index: Int, _ parent: CodingPathNode?, _ component: CodingPathNode.Component?,
        named type: Any.Type = Double.self
    ) throws -> Double {
        try checkNotDeferred()
        let node = nodes[index]
        guard node.kind == .number else { throw notANumber(Double.self, at: index, parent, component) }
        if !node.has(JSONNode.numberHasExponent), let value = exactDecimal(node) { return value }
        guard let value = withText(of: node, FoundationNumberRules.strtodValue) else { throw fail(.number) }
        try checkFloatingPoint(type, value.isFinite, isZero: value == 0, node, parent, component)
        return value
    }

    /// The `Float` at `index`, as `strtof` converts the text, under the rules of
    /// ``double(at:_:_:)``.
    func float(at index: Int, _ parent: CodingPathNode?, _ component: CodingPathNode.Component?) throws -> Float {
        try checkNotDeferred()
        let node = nodes[index]
        guard node.kind == .number else { throw notANumber(Float.self, at: index, parent, component) }
        guard let value = withText(of: node, FoundationNumberRules.strtofValue) else { throw fail(.number) }
        try checkFloatingPoint(Float.self, value.isFinite, isZero: value == 0, node, parent, component)
        return value
    }

    /// The bytes of the number `node`.
    private func withText<R>(of node: JSONNode, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        bytes.withUnsafeBufferPointer { text in
            let start = Int(node.start)
            return body(UnsafeBufferPointer(rebasing: text[start..<start + Int(node.length)]))
        }
    }

    /// The error for a floating-point value asked of something that is not a number; a string
    /// under a `nonConformingFloatDecodingStrategy` that reads strings is left to `JSONDecoder`.
    private func notANumber(
        _ type: Any.Type, at index: Int, _ parent: CodingPathNode?, _ component: CodingPathNode.Component?
    ) -> any Error {
        if floatsMayBeStrings && nodes[index].kind == .string { return fail(.settings) }
        return scalarMismatch(type, at: index, parent, component)
    }

    /// Foundation refuses infinite results, and zeros unless the text is a true zero (see
    /// ``FoundationNumberRules/isTrueZero(_:)``); a negative zero is its value.
    private func checkFloatingPoint(
        _ type: Any.Type, _ isFinite: Bool, isZero: Bool, _ node: JSONNode, _ parent: CodingPathNode?,
        _ component: CodingPathNode.Component?
    ) throws {
        guard isFinite else { throw numberMisfit(type, node, parent, component) }
        guard isZero else { return }
        guard withText(of: node, FoundationNumberRules.isTrueZero) else {
            throw numberMisfit(type, node, parent, component)
        }
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

    /// The value of an integer number of at most 18 digits (`-0` is 0, as Foundation reads it);
    /// nil for more digits.
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
        return negative ? -value : value
    }
}
