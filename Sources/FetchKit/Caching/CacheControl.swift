import Foundation

/// The directives of a `Cache-Control` header (RFC 9111 §5.2) that a private cache acts on,
/// in a response or in a request.
///
/// Parsing follows the RFC's grammar and never fails as a whole: directive names are
/// case-insensitive, arguments may be tokens or quoted strings, and a directive whose
/// argument is malformed (`max-age=abc`, `max-age='60'`) counts as absent, except
/// `max-age`, whose malformed argument makes the response stale (a cache must not reuse
/// what it cannot prove fresh). Unknown directives are ignored; when a directive appears
/// twice, its first occurrence counts.
struct CacheControl: Sendable, Equatable {
    var maxAge: Int?
    /// A `max-age` whose argument is not a number of seconds: the response is stale.
    var invalidMaxAge = false
    var noCache = false
    var noStore = false
    var mustRevalidate = false
    var mustUnderstand = false
    var isPrivate = false
    var isPublic = false
    var immutable = false
    var staleWhileRevalidate: Int?
    var staleIfError: Int?
    // Request directives.
    var maxStale: Int?
    var maxStaleUnbounded = false
    var minFresh: Int?
    var onlyIfCached = false

    /// The largest delta-seconds value a cache keeps (RFC 9111 §1.2.2): 2³¹.
    static let deltaSecondsCap = 2_147_483_648

    /// Parses a header value; `nil` means no header (all directives absent).
    static func parse(_ value: String?) -> CacheControl {
        var result = CacheControl()
        guard let value else { return result }
        var seen = Set<String>()
        for (name, argument) in directives(value) where seen.insert(name).inserted {
            switch name {
            case "max-age":
                if let seconds = argument.flatMap(deltaSeconds) {
                    result.maxAge = seconds
                } else {
                    result.invalidMaxAge = true
                }
            case "no-cache": result.noCache = true
            case "no-store": result.noStore = true
            case "must-revalidate", "proxy-revalidate": result.mustRevalidate = true
            case "must-understand": result.mustUnderstand = true
            case "private": result.isPrivate = true
            case "public": result.isPublic = true
            case "immutable": result.immutable = true
            case "stale-while-revalidate": result.staleWhileRevalidate = argument.flatMap(deltaSeconds)
            case "stale-if-error": result.staleIfError = argument.flatMap(deltaSeconds)
            case "max-stale":
                if let argument {
                    result.maxStale = deltaSeconds(argument)
                } else {
                    result.maxStaleUnbounded = true
                }
            case "min-fresh": result.minFresh = argument.flatMap(deltaSeconds)
            case "only-if-cached": result.onlyIfCached = true
            default: break
            }
        }
        return result
    }

    /// `1*DIGIT`, capped at 2³¹ (RFC 9111 §1.2.2); `nil` for anything else.
    static func deltaSeconds(_ text: String) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        let digits = text.drop(while: { $0 == "0" })
        guard digits.count <= 10, let value = Int(digits.isEmpty ? "0" : String(digits)) else { return deltaSecondsCap }
        return min(value, deltaSecondsCap)
    }

    /// The directives in order: lowercased names with their unquoted arguments. Commas inside
    /// quoted strings do not split; a piece whose name is not a token is skipped.
    private static func directives(_ value: String) -> [(String, String?)] {
        var pieces: [String] = []
        var current = ""
        var quoted = false
        var escaped = false
        for character in value {
            if escaped {
                escaped = false
            } else if quoted, character == "\\" {
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
            } else if character == ",", !quoted {
                pieces.append(current)
                current = ""
                continue
            }
            current.append(character)
        }
        pieces.append(current)
        var result: [(String, String?)] = []
        for piece in pieces {
            let directive = piece.trimmingCharacters(in: .whitespaces)
            guard !directive.isEmpty else { continue }
            let parts = directive.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0]).lowercased()
            guard !name.isEmpty, name.allSatisfy(isTokenCharacter) else { continue }
            guard parts.count == 2 else {
                result.append((name, nil))
                continue
            }
            var argument = String(parts[1])
            if argument.hasPrefix("\"") {
                guard argument.count >= 2, argument.hasSuffix("\"") else {
                    result.append((name, ""))
                    continue
                }
                argument = String(argument.dropFirst().dropLast()).replacingOccurrences(of: "\\", with: "")
            } else if !argument.allSatisfy(isTokenCharacter) {
                argument = ""
            }
            result.append((name, argument))
        }
        return result
    }

    /// RFC 9110's `tchar`.
    private static func isTokenCharacter(_ character: Character) -> Bool {
        guard let ascii = character.asciiValue, ascii > 32, ascii < 127 else { return false }
        return !"\"(),/:;<=>?@[\\]{}".contains(character)
    }
}
