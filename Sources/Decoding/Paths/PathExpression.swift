import Foundation

/// One parsed path, such as `volumeInfo.industryIdentifiers[type=ISBN_13].identifier`.
///
/// Paths are parsed once per distinct string and cached in ``PathCache``.
final class PathExpression: Sendable {
    /// How a step reads an array, when the value it meets is one.
    enum ArrayStep: Sendable, Equatable {
        case index(Int)
        case first
        case last
        case filter(field: AnyCodingKey, value: String)

        /// The position this step names in an array of `count` elements (it may be out of
        /// range); nil for a filter, which names an element by its content.
        func position(count: Int) -> Int? {
            switch self {
            case .first: 0
            case .last: count - 1
            case .index(let index): index
            case .filter: nil
            }
        }
    }

    /// One step of a path.
    struct Step: Sendable {
        /// The key this step looks up on an object, or nil for steps that only read arrays
        /// (`[type=ISBN_13]`, `[0]`).
        let key: AnyCodingKey?
        /// What the step means on an array, or nil when it is only a key (escaped or plain).
        let arrayStep: ArrayStep?
        /// The step as written in canonical form, for messages.
        let text: String
    }

    /// The path as written.
    let text: String
    /// The steps, at least one.
    let steps: [Step]
    /// `prefixes[i]` is the canonical text of steps `0...i`, the cache key of the value they reach.
    let prefixes: [String]
    /// Process-wide numbers for `prefixes`, equal for equal prefixes, so caches compare integers.
    let prefixIDs: [Int]
    /// Whether every step is a plain key (no index, `first`, `last` or filter), so the path walks objects only.
    let isObjectChain: Bool

    /// Whether a key string needs parsing at all: plain keys (no `.`, `[` or `\`) are looked up as they are.
    @inline(__always)
    static func isPlainKey(_ string: String) -> Bool {
        @inline(__always)
        func isSpecial(_ byte: UInt8) -> Bool { byte == 0x2E || byte == 0x5B || byte == 0x5C }
        if let plain = string.utf8.withContiguousStorageIfAvailable({ !$0.contains(where: isSpecial) }) {
            return plain
        }
        return !string.utf8.contains(where: isSpecial)
    }

    /// Parses `text`.
    ///
    /// - Throws: ``PathSyntaxError`` when the path is malformed.
    convenience init(parsing text: String) throws(PathSyntaxError) {
        var next = 0
        try self.init(parsing: text) { _ in
            defer { next += 1 }
            return next
        }
    }

    /// Parses `text`, numbering its prefixes with `intern`, which gives equal prefixes equal numbers.
    init(parsing text: String, prefixIDs intern: (String) -> Int) throws(PathSyntaxError) {
        self.text = text
        var steps: [Step] = []
        var characters = Array(text)[...]
        var offset = 0
        var expectingStep = true

        func fail(_ reason: String) -> PathSyntaxError {
            PathSyntaxError(path: text, offset: offset, reason: reason)
        }

        while !characters.isEmpty || expectingStep {
            if characters.isEmpty {
                throw fail(steps.isEmpty ? "the path is empty" : "the path ends with '.'")
            }
            if characters.first == "[" {
                // An array-only step: [field=value], [n], [first], [last].
                let start = offset
                characters.removeFirst()
                offset += 1
                var body = ""
                var closed = false
                var separator: Int?
                var escaped = false
                while let character = characters.first {
                    characters.removeFirst()
                    offset += 1
                    if escaped {
                        body.append(character)
                        escaped = false
                    } else if character == "\\" {
                        escaped = true
                    } else if character == "]" {
                        closed = true
                        break
                    } else if character == "=" && separator == nil {
                        separator = body.count
                    } else {
                        body.append(character)
                    }
                }
                guard closed else {
                    throw PathSyntaxError(path: text, offset: start, reason: "'[' is not closed by ']'")
                }
                let step: Step
                if let separator {
                    let field = String(body.prefix(separator))
                    let value = String(body.dropFirst(separator))
                    guard !field.isEmpty else {
                        throw PathSyntaxError(path: text, offset: start, reason: "the filter has no field name")
                    }
                    step = Step(
                        key: nil,
                        arrayStep: .filter(field: AnyCodingKey(field), value: value),
                        text: "[\(Self.escape(field))=\(Self.escape(value))]")
                } else if let arrayStep = Self.arrayMeaning(of: body) {
                    step = Step(key: nil, arrayStep: arrayStep, text: "[\(body)]")
                } else {
                    throw PathSyntaxError(
                        path: text, offset: start,
                        reason: "'[\(body)]' is neither a filter [field=value] nor an index, first or last")
                }
                steps.append(step)
                expectingStep = false
            } else if characters.first == "." {
                if expectingStep { throw fail("empty step before '.'") }
                characters.removeFirst()
                offset += 1
                expectingStep = true
                // `.[field=value]` is the same as `[field=value]`.
            } else {
                if !expectingStep {
                    throw fail("expected '.' or '[' between steps")
                }
                var key = ""
                var hadEscape = false
                var escaped = false
                while let character = characters.first {
                    if escaped {
                        key.append(character)
                        escaped = false
                    } else if character == "\\" {
                        escaped = true
                        hadEscape = true
                    } else if character == "." || character == "[" {
                        break
                    } else {
                        key.append(character)
                    }
                    characters.removeFirst()
                    offset += 1
                }
                if escaped { throw fail("the path ends with a lone '\\'") }
                let meaning = Self.arrayMeaning(of: key)
                // An escaped `\first` or `\0` is a key only; keep the escape in its text so its
                // cache entry differs from the array step's.
                let stepText = hadEscape && meaning != nil ? "\\" + key : Self.escape(key)
                steps.append(Step(key: AnyCodingKey(key), arrayStep: hadEscape ? nil : meaning, text: stepText))
                expectingStep = false
            }
        }
        self.steps = steps
        var prefixes: [String] = []
        var running = ""
        for step in steps {
            if !running.isEmpty && step.key != nil { running.append(".") }
            running.append(step.text)
            prefixes.append(running)
        }
        self.prefixes = prefixes
        self.prefixIDs = prefixes.map(intern)
        self.isObjectChain = steps.allSatisfy { $0.key != nil && $0.arrayStep == nil }
    }

    /// What a plain step means on an array: digits are an index, `first` and `last` the ends.
    private static func arrayMeaning(of step: String) -> ArrayStep? {
        switch step {
        case "first": return .first
        case "last": return .last
        default:
            guard !step.isEmpty, step.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let index = Int(step) else {
                return nil
            }
            return .index(index)
        }
    }

    /// Escapes the characters that have a meaning in paths.
    static func escape(_ key: String) -> String {
        guard !isPlainKey(key) || key.contains("]") || key.contains("=") else { return key }
        var result = ""
        for character in key {
            if character == "." || character == "[" || character == "]" || character == "=" || character == "\\" {
                result.append("\\")
            }
            result.append(character)
        }
        return result
    }
}

/// A path that cannot be parsed, such as `"a..b"` or `"items[type=ISBN_13"`.
struct PathSyntaxError: Error, Sendable, CustomStringConvertible {
    /// The path as written.
    let path: String
    /// The character offset where the problem is.
    let offset: Int
    /// What is wrong.
    let reason: String

    var description: String { "invalid path \"\(path)\" at offset \(offset): \(reason)" }
}
