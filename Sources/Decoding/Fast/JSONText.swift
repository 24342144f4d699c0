/// Conversions of the text of ``JSONNode``s that the parser has already checked.
enum JSONText {
    /// The string a string node holds, its escapes resolved.
    ///
    /// The parser has checked the UTF-8 and the escapes (a lone surrogate never gets here), so
    /// the conversion cannot fail or replace anything.
    static func string(of node: JSONNode, in bytes: UnsafeBufferPointer<UInt8>) -> String {
        let start = Int(node.start)
        let end = start + Int(node.length)
        guard node.has(JSONNode.stringHasEscapes) else {
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        }
        var result: [UInt8] = []
        result.reserveCapacity(end - start)
        var position = start
        while position < end {
            let byte = bytes[position]
            guard byte == UInt8(ascii: "\\") else {
                result.append(byte)
                position += 1
                continue
            }
            let escape = bytes[position + 1]
            position += 2
            switch escape {
            case UInt8(ascii: "b"): result.append(0x08)
            case UInt8(ascii: "f"): result.append(0x0C)
            case UInt8(ascii: "n"): result.append(0x0A)
            case UInt8(ascii: "r"): result.append(0x0D)
            case UInt8(ascii: "t"): result.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = UInt32(hexUnit(bytes, at: position))
                position += 4
                if scalar >= 0xD800 && scalar <= 0xDBFF {
                    // The parser has checked that an escaped low surrogate follows.
                    let low = UInt32(hexUnit(bytes, at: position + 2))
                    position += 6
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                appendUTF8(scalar, to: &result)
            default: result.append(escape)  // `"`, `\` and `/` stand for themselves.
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// The value of the four hexadecimal digits at `position`, which the parser has checked.
    private static func hexUnit(_ bytes: UnsafeBufferPointer<UInt8>, at position: Int) -> UInt16 {
        var unit: UInt16 = 0
        for offset in 0..<4 { unit = unit << 4 | UInt16(JSONParser.hexValue(bytes[position + offset]) ?? 0) }
        return unit
    }

    /// Appends the UTF-8 form of `scalar`, a Unicode scalar value (never a surrogate).
    private static func appendUTF8(_ scalar: UInt32, to result: inout [UInt8]) {
        switch scalar {
        case 0..<0x80:
            result.append(UInt8(scalar))
        case 0x80..<0x800:
            result.append(UInt8(0xC0 | scalar >> 6))
            result.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            result.append(UInt8(0xE0 | scalar >> 12))
            result.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            result.append(UInt8(0x80 | scalar & 0x3F))
        default:
            result.append(UInt8(0xF0 | scalar >> 18))
            result.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            result.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            result.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    /// Whether the `count` bytes of `first` at `a` equal the `count` bytes of `second` at `b`.
    @inline(__always)
    static func equalBytes(
        _ first: UnsafeBufferPointer<UInt8>, _ a: Int, _ second: UnsafeBufferPointer<UInt8>, _ b: Int, _ count: Int
    ) -> Bool {
        var offset = 0
        while offset < count {
            if first[a + offset] != second[b + offset] { return false }
            offset += 1
        }
        return true
    }
}
