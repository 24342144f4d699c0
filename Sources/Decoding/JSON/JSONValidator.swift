import Foundation

/// A place in JSON text where it stops being valid, with a reason.
struct JSONSyntaxError: Error, Sendable, CustomStringConvertible {
    /// The 1-based line.
    let line: Int
    /// The 1-based column, counted in characters.
    let column: Int
    /// What is wrong there.
    let reason: String
    /// For data nested deeper than ``JSONValidator/maximumDepth``, the readable path of the
    /// value that goes one level too deep, such as `a[0][0]`.
    var depthPath: String?

    var description: String { "invalid JSON at line \(line), column \(column): \(reason)" }
}

/// A strict RFC 8259 checker for JSON text: it parses nothing, it only says whether (and
/// where) the text breaks the grammar.
///
/// ``PathDecoder`` runs it before decoding in strict mode (Foundation's parser accepts a few
/// things the RFC does not, such as trailing commas), and after Foundation rejects data to say
/// where the problem is. It is iterative, so deep nesting cannot exhaust the stack.
enum JSONValidator {
    /// The deepest nesting of arrays and objects Foundation's parser accepts.
    static let maximumDepth = 512

    /// The message for data nested deeper than ``maximumDepth``.
    static let depthMessage = "nested deeper than \(maximumDepth) levels"

    private enum Container { case array, object }

    /// One open array or object: enough to name the path to its current value.
    private struct Level {
        let container: Container
        /// The index of the current element of an array.
        var index = 0
        /// Where the current key of an object starts and ends in the data, quotes included.
        var key = 0..<0
    }

    private enum Expectation {
        case value, firstValueOrEnd, commaOrEndOfArray, firstKeyOrEnd, key, colon, commaOrEndOfObject
    }

    /// Checks `data`.
    ///
    /// - Throws: ``JSONSyntaxError`` at the first place the data is not RFC 8259 JSON.
    static func validate(_ data: Data) throws(JSONSyntaxError) {
        let bytes = [UInt8](data)
        var scanner = Scanner(bytes: bytes)
        try scanner.run()
    }

    private struct Scanner {
        let bytes: [UInt8]
        var position = 0
        var stack: [Level] = []
        var expectation = Expectation.value
        var sawTopLevelValue = false
        /// The first place the data nests deeper than ``JSONValidator/maximumDepth``: reported
        /// once the rest of the data is known to be valid, so a syntax error wins.
        var tooDeep: JSONSyntaxError?

        init(bytes: [UInt8]) {
            self.bytes = bytes
        }

        func error(_ reason: String, at offset: Int? = nil) -> JSONSyntaxError {
            let end = min(offset ?? position, bytes.count)
            var line = 1
            var column = 1
            var index = 0
            while index < end {
                let byte = bytes[index]
                if byte == 0x0A {
                    line += 1
                    column = 1
                } else if byte & 0xC0 != 0x80 {
                    column += 1
                }
                index += 1
            }
            return JSONSyntaxError(line: line, column: column, reason: reason)
        }

        func describe(_ byte: UInt8) -> String {
            if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
            return "byte 0x" + String(byte, radix: 16, uppercase: true)
        }

        mutating func skipWhitespace() {
            while position < bytes.count {
                switch bytes[position] {
                case 0x20, 0x09, 0x0A, 0x0D: position += 1
                default: return
                }
            }
        }

        mutating func run() throws(JSONSyntaxError) {
            if bytes.isEmpty { throw error("the data is empty") }
            // Tolerate a UTF-8 byte order mark, as Foundation does.
            if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { position = 3 }
            while true {
                skipWhitespace()
                guard position < bytes.count else {
                    if stack.isEmpty && sawTopLevelValue {
                        if let tooDeep { throw tooDeep }
                        return
                    }
                    throw error(
                        sawTopLevelValue || !stack.isEmpty ? "unexpected end of data" : "the data holds no value")
                }
                if stack.isEmpty && sawTopLevelValue {
                    throw error("unexpected \(describe(bytes[position])) after the end of the value")
                }
                let byte = bytes[position]
                switch expectation {
                case .value, .firstValueOrEnd:
                    if expectation == .firstValueOrEnd && byte == 0x5D {
                        position += 1
                        closeContainer()
                    } else {
                        try value()
                    }
                case .commaOrEndOfArray:
                    if byte == 0x2C {
                        position += 1
                        stack[stack.count - 1].index += 1
                        skipWhitespace()
                        if position < bytes.count && bytes[position] == 0x5D { throw error("trailing comma in array") }
                        expectation = .value
                    } else if byte == 0x5D {
                        position += 1
                        closeContainer()
                    } else {
                        throw error("expected ',' or ']' in array, found \(describe(byte))")
                    }
                case .firstKeyOrEnd, .key:
                    if expectation == .firstKeyOrEnd && byte == 0x7D {
                        position += 1
                        closeContainer()
                    } else if byte == 0x22 {
                        let start = position
                        try string()
                        stack[stack.count - 1].key = start..<position
                        expectation = .colon
                    } else if byte == 0x7D {
                        throw error("trailing comma in object")
                    } else {
                        throw error("expected a string key in object, found \(describe(byte))")
                    }
                case .colon:
                    guard byte == 0x3A else { throw error("expected ':' after object key, found \(describe(byte))") }
                    position += 1
                    expectation = .value
                case .commaOrEndOfObject:
                    if byte == 0x2C {
                        position += 1
                        expectation = .key
                    } else if byte == 0x7D {
                        position += 1
                        closeContainer()
                    } else {
                        throw error("expected ',' or '}' in object, found \(describe(byte))")
                    }
                }
            }
        }

        mutating func closeContainer() {
            stack.removeLast()
            afterValue()
        }

        mutating func afterValue() {
            switch stack.last?.container {
            case .none: sawTopLevelValue = true
            case .array: expectation = .commaOrEndOfArray
            case .object: expectation = .commaOrEndOfObject
            }
        }

        mutating func value() throws(JSONSyntaxError) {
            let byte = bytes[position]
            switch byte {
            case 0x7B:
                checkDepth()
                position += 1
                stack.append(Level(container: .object))
                expectation = .firstKeyOrEnd
                return
            case 0x5B:
                checkDepth()
                position += 1
                stack.append(Level(container: .array))
                expectation = .firstValueOrEnd
                return
            case 0x22: try string()
            case 0x74: try literal("true")
            case 0x66: try literal("false")
            case 0x6E: try literal("null")
            case 0x2D, 0x30...0x39: try number()
            default: throw error("expected a value, found \(describe(byte))")
            }
            afterValue()
        }

        mutating func literal(_ word: String) throws(JSONSyntaxError) {
            for expected in word.utf8 {
                guard position < bytes.count, bytes[position] == expected else {
                    throw error("invalid literal, expected '\(word)'")
                }
                position += 1
            }
        }

        mutating func digits() -> Int {
            let start = position
            while position < bytes.count, bytes[position] >= 0x30, bytes[position] <= 0x39 { position += 1 }
            return position - start
        }

        mutating func number() throws(JSONSyntaxError) {
            let start = position
            if bytes[position] == 0x2D { position += 1 }
            guard position < bytes.count, bytes[position] >= 0x30, bytes[position] <= 0x39 else {
                throw error("a number needs a digit after '-'")
            }
            if bytes[position] == 0x30 {
                position += 1
                if position < bytes.count, bytes[position] >= 0x30, bytes[position] <= 0x39 {
                    throw error("a number cannot have a leading zero", at: start)
                }
            } else {
                _ = digits()
            }
            if position < bytes.count, bytes[position] == 0x2E {
                position += 1
                guard digits() > 0 else { throw error("a number needs a digit after '.'") }
            }
            if position < bytes.count, bytes[position] == 0x65 || bytes[position] == 0x45 {
                position += 1
                if position < bytes.count, bytes[position] == 0x2B || bytes[position] == 0x2D { position += 1 }
                guard digits() > 0 else { throw error("a number needs a digit in its exponent") }
            }
        }

        /// Notes the first place where opening one more array or object nests deeper than ``maximumDepth``.
        mutating func checkDepth() {
            guard stack.count >= JSONValidator.maximumDepth, tooDeep == nil else { return }
            var failure = error(JSONValidator.depthMessage)
            failure.depthPath = CodingPathFormatter.string(
                stack.map { level in
                    switch level.container {
                    case .array: AnyCodingKey(intValue: level.index)
                    case .object: AnyCodingKey(keyText(level.key))
                    }
                })
            tooDeep = failure
        }

        /// The key written at `range` (quotes included), unescaped.
        func keyText(_ range: Range<Int>) -> String {
            let quoted = bytes[range]
            if !quoted.contains(0x5C) { return String(decoding: quoted.dropFirst().dropLast(), as: UTF8.self) }
            return (try? JSONDecoder().decode(String.self, from: Data(quoted)))
                ?? String(decoding: quoted.dropFirst().dropLast(), as: UTF8.self)
        }

        mutating func string() throws(JSONSyntaxError) {
            let start = position
            position += 1
            while position < bytes.count {
                let byte = bytes[position]
                switch byte {
                case 0x22:
                    position += 1
                    return
                case 0x5C:
                    position += 1
                    guard position < bytes.count else { break }
                    switch bytes[position] {
                    case 0x22, 0x5C, 0x2F, 0x62, 0x66, 0x6E, 0x72, 0x74: position += 1
                    case 0x75:
                        position += 1
                        for _ in 0..<4 {
                            guard position < bytes.count, isHexDigit(bytes[position]) else {
                                throw error("\\u needs four hexadecimal digits")
                            }
                            position += 1
                        }
                    default: throw error("invalid escape \\\(describe(bytes[position]))")
                    }
                case 0x00..<0x20:
                    throw error("unescaped control character \(describe(byte)) in string")
                case 0x80...:
                    try utf8Sequence()
                default:
                    position += 1
                }
            }
            throw error("unterminated string", at: start)
        }

        func isHexDigit(_ byte: UInt8) -> Bool {
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66)
        }

        /// Checks one multi-byte UTF-8 sequence: no overlong forms, no surrogates, nothing past U+10FFFF.
        mutating func utf8Sequence() throws(JSONSyntaxError) {
            switch UTF8Sequence.check(bytes, at: position) {
            case .valid(let length): position += length
            case .invalidLead: throw error("invalid UTF-8 \(describe(bytes[position])) in string")
            case .truncated: throw error("truncated UTF-8 sequence in string")
            case .invalidContinuation: throw error("invalid UTF-8 sequence in string")
            }
        }
    }
}
