import Foundation

/// The directives of a `Cache-Control` header that a private cache acts on.
///
/// Parsing is strict: a header that does not parse (an unbalanced quote, a `max-age`
/// that is not a number, an empty directive name) makes the response uncacheable, never
/// an error.
struct CacheControl: Sendable, Equatable {
    var maxAge: Int?
    var noCache = false
    var noStore = false
    var mustRevalidate = false
    var isPrivate = false
    var isPublic = false

    /// Parses a header value; `nil` when it is malformed.
    static func parse(_ value: String?) -> CacheControl? {
        var result = CacheControl()
        guard let value else { return result }
        for raw in split(value) {
            let directive = raw.trimmingCharacters(in: .whitespaces)
            if directive.isEmpty { continue }
            let parts = directive.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = parts[0].trimmingCharacters(in: .whitespaces).lowercased()
            guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
                return nil
            }
            var argument: String?
            if parts.count == 2 {
                var text = parts[1].trimmingCharacters(in: .whitespaces)
                if text.hasPrefix("\"") {
                    guard text.count >= 2, text.hasSuffix("\"") else { return nil }
                    text = String(text.dropFirst().dropLast())
                }
                argument = text
            }
            switch name {
            case "max-age":
                guard let argument, let seconds = Int(argument), seconds >= 0 else { return nil }
                result.maxAge = seconds
            case "no-cache": result.noCache = true
            case "no-store": result.noStore = true
            case "must-revalidate", "proxy-revalidate": result.mustRevalidate = true
            case "private": result.isPrivate = true
            case "public": result.isPublic = true
            default: break
            }
        }
        return result
    }

    /// Splits on commas outside quoted strings; an unbalanced quote keeps its text (and fails parsing).
    private static func split(_ value: String) -> [String] {
        var pieces: [String] = []
        var current = ""
        var quoted = false
        for character in value {
            if character == "\"" { quoted.toggle() }
            if character == ",", !quoted {
                pieces.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        pieces.append(current)
        return pieces
    }
}
