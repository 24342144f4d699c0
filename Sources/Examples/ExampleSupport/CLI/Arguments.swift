import Foundation

/// A program's command-line words, consumed as they are read: flags and options may stand
/// anywhere; what is left are the positional words. Parsed by hand, with no dependency.
///
/// For example, for `booklab add 3 --store /tmp/b.sqlite`:
///
/// ```swift
/// var arguments = Arguments(["add", "3", "--store", "/tmp/b.sqlite"])
/// let store = try arguments.option("--store")          // "/tmp/b.sqlite"
/// let command = try arguments.command()                // "add"
/// let number = try arguments.integer(named: "number")  // 3
/// try arguments.finish()
/// ```
public struct Arguments: Sendable {
    private var words: [String]
    private let knownOptions: Set<String>

    /// Creates the arguments from words (usually `CommandLine.arguments.dropFirst()`).
    ///
    /// - Parameters:
    ///   - words: the words after the program name.
    ///   - knownOptions: every flag and option the program's commands take (such as `--store`),
    ///     so that a call with no command but `--bogus` is told about `--bogus`.
    public init(_ words: some Sequence<String>, knownOptions: Set<String> = []) {
        self.words = Array(words)
        self.knownOptions = knownOptions
    }

    /// Whether no words are left.
    public var isEmpty: Bool { words.isEmpty }

    /// Removes a flag such as `--live` wherever it stands.
    ///
    /// - Parameter name: the flag, with its dashes.
    /// - Returns: whether it was present.
    public mutating func flag(_ name: String) -> Bool {
        guard let index = words.firstIndex(of: name) else { return false }
        words.remove(at: index)
        return true
    }

    /// Removes an option and its value, written `--name value` or `--name=value`.
    ///
    /// - Parameter name: the option, with its dashes.
    /// - Returns: its value, or nil when the option is absent.
    /// - Throws: ``UsageError`` when the option has no value.
    public mutating func option(_ name: String) throws(UsageError) -> String? {
        if let index = words.firstIndex(where: { $0.hasPrefix(name + "=") }) {
            let value = String(words[index].dropFirst(name.count + 1))
            words.remove(at: index)
            return value
        }
        guard let index = words.firstIndex(of: name) else { return nil }
        guard index + 1 < words.count, !words[index + 1].hasPrefix("--") else {
            throw UsageError("\(name) needs a value", fix: "write \(name) <value>")
        }
        let value = words[index + 1]
        words.removeSubrange(index...index + 1)
        return value
    }

    /// Removes an option whose value is a whole number.
    ///
    /// - Parameters:
    ///   - name: the option, with its dashes.
    ///   - range: the values allowed.
    /// - Returns: its value, or nil when the option is absent.
    /// - Throws: ``UsageError`` when the value is missing, not a number or out of range.
    public mutating func integerOption(
        _ name: String, in range: ClosedRange<Int> = 1...Int.max
    ) throws(UsageError)
        -> Int?
    {
        guard let text = try option(name) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw UsageError(
                "\(name) needs a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'",
                fix: "give a number in that range")
        }
        return value
    }

    /// Removes the first positional word: the command.
    ///
    /// - Returns: the command.
    /// - Throws: ``UsageError`` when no word is left.
    public mutating func command() throws(UsageError) -> String {
        try positional(named: "command")
    }

    /// Removes the next positional word.
    ///
    /// - Parameter name: what the word is, for the error message.
    /// - Returns: the word.
    /// - Throws: ``UsageError`` when no positional word is left.
    public mutating func positional(named name: String) throws(UsageError) -> String {
        guard let index = words.firstIndex(where: { !$0.hasPrefix("--") || $0 == "--" }) else {
            // `--bogus` alone is a misspelt option, not a missing command.
            if let unknown = words.first(where: { !knownOptions.contains(Self.optionName($0)) }) {
                throw Self.unknownOption(unknown)
            }
            throw UsageError("missing \(name)", fix: "give the \(name) as the usage below shows")
        }
        if words[index] == "--" {
            guard index + 1 < words.count else {
                throw UsageError("missing \(name)", fix: "give the \(name) after --")
            }
            let word = words[index + 1]
            words.removeSubrange(index...index + 1)
            return word
        }
        return words.remove(at: index)
    }

    /// Removes the next positional word as a whole number.
    ///
    /// - Parameter name: what the number is, for the error message.
    /// - Returns: the number.
    /// - Throws: ``UsageError`` when it is missing or not a whole number.
    public mutating func integer(named name: String) throws(UsageError) -> Int {
        let text = try positional(named: name)
        guard let value = Int(text) else {
            throw UsageError("\(name) must be a whole number, not '\(text)'", fix: "give its number, such as 3")
        }
        return value
    }

    /// Removes every remaining positional word, for commands that take free text.
    ///
    /// - Parameter name: what the words are, for the error message.
    /// - Returns: the words joined by spaces.
    /// - Throws: ``UsageError`` when there are none, or an unknown option is left among them.
    public mutating func rest(named name: String) throws(UsageError) -> String {
        if let unknown = words.first(where: { $0.hasPrefix("--") && $0 != "--" }) {
            throw Self.unknownOption(unknown)
        }
        let text = words.filter { $0 != "--" }.joined(separator: " ")
        words.removeAll()
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw UsageError("missing \(name)", fix: "give the \(name) after the command")
        }
        return text
    }

    /// The longest search the examples send, in characters (real titles are far shorter).
    public static let maximumSearchLength = 500

    /// Removes every remaining positional word as words to search for: a title, or a search.
    ///
    /// For example, `mustc add '!!!'` is a wrong call, before anything is stored or sent:
    ///
    /// ```swift
    /// var arguments = Arguments(["add", "!!!"])
    /// _ = try arguments.command()
    /// let title = try arguments.searchWords(named: "title", example: "\"The Godfather\"")  // throws
    /// ```
    ///
    /// - Parameters:
    ///   - name: what the words are, for the error message.
    ///   - example: words to suggest instead, as the user would type them.
    /// - Returns: the words joined by spaces, trimmed.
    /// - Throws: ``UsageError`` when there are none, an unknown option is left among them, they
    ///   hold no letter or digit (only punctuation, symbols or emoji), or they are longer than
    ///   ``maximumSearchLength``.
    public mutating func searchWords(named name: String, example: String) throws(UsageError) -> String {
        let text = try rest(named: name).trimmingCharacters(in: .whitespacesAndNewlines)
        let shown = text.count > 40 ? "\(text.prefix(40))…" : text
        guard text.contains(where: { $0.isLetter || $0.isNumber }) else {
            throw UsageError(
                "nothing to search for in '\(shown)': it has no letter or digit",
                fix: "give the \(name), such as \(example)")
        }
        guard text.count <= Self.maximumSearchLength else {
            throw UsageError(
                "the \(name) '\(shown)' is \(text.count) characters long, more than the \(Self.maximumSearchLength) searched",
                fix: "give a shorter \(name), such as \(example)")
        }
        return text
    }

    /// Checks that every word was used.
    ///
    /// - Throws: ``UsageError`` naming the first word left over.
    public func finish() throws(UsageError) {
        if let extra = words.first {
            throw extra.hasPrefix("--")
                ? Self.unknownOption(extra)
                : UsageError("unexpected argument '\(extra)'", fix: "quote words that belong together, or leave it out")
        }
    }

    /// The error for an option no command of the program knows.
    private static func unknownOption(_ word: String) -> UsageError {
        UsageError("unknown option \(optionName(word))", fix: "check its spelling against the usage below")
    }

    /// `--store` for `--store=/tmp/b.sqlite`.
    private static func optionName(_ word: String) -> String {
        word.split(separator: "=", maxSplits: 1).first.map(String.init) ?? word
    }
}

/// A wrong call: the program prints `<program>: <problem>; <fix>`, its usage line, and exits
/// with status 2.
public struct UsageError: Error, Sendable, CustomStringConvertible {
    /// What was wrong with the call.
    public let problem: String
    /// What to do instead.
    public let fix: String

    /// `unknown option --bogus; check its spelling against the usage below`.
    public var description: String { "\(problem); \(fix)" }

    /// Creates the error.
    ///
    /// - Parameters:
    ///   - problem: what was wrong with the call.
    ///   - fix: what to do instead (by default: see the usage below).
    public init(_ problem: String, fix: String = "see the usage below") {
        self.problem = problem
        self.fix = fix
    }
}
