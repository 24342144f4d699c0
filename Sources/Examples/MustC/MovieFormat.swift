import ExampleSupport
import Foundation

/// How MustC prints movies and popularity values: plain lines a person reads and tests match.
enum MovieFormat {
    /// A popularity with three decimals (TMDB's precision), or `no popularity`.
    static func popularity(_ value: Double?) -> String {
        guard let value else { return "no popularity" }
        return String(format: "%.3f", value)
    }

    /// `"Amélie" (Ben): popularity 32.700, TMDB 194`.
    static func summary(_ movie: Movie) -> String {
        let remote = movie.remoteID.map { "TMDB \($0)" } ?? "no TMDB match"
        let popularity = movie.popularity.map { "popularity \(Self.popularity($0))" } ?? "no popularity"
        return "\"\(movie.title)\" (\(movie.member)): \(popularity), \(remote)"
    }

    /// One row of `mustc list`: the popularity right-aligned, then the title and details.
    static func row(_ movie: Movie) -> String {
        let value = movie.popularity.map { String(format: "%.3f", $0) } ?? "-"
        let padded = String(repeating: " ", count: max(0, 10 - value.count)) + value
        let remote = movie.remoteID.map { "TMDB \($0)" } ?? "no TMDB match"
        return "\(padded)  \(movie.title)  (\(movie.member), \(remote))"
    }

    /// `"Amélie": 32.700 → 33.912`.
    static func change(_ movie: Movie, to popularity: Double) -> String {
        "\"\(movie.title)\": \(Self.popularity(movie.popularity)) → \(Self.popularity(popularity))"
    }
}
