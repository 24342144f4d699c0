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

    /// One row of `mustc list`: the popularity right-aligned with its trend, then the title
    /// and details.
    static func row(_ movie: Movie, trend: Trend) -> String {
        let value = movie.popularity.map { String(format: "%.3f", $0) } ?? "-"
        let padded = String(repeating: " ", count: max(0, 10 - value.count)) + value
        let remote = movie.remoteID.map { "TMDB \($0)" } ?? "no TMDB match"
        return "\(padded) \(trend.symbol)  \(movie.title)  (\(movie.member), \(remote))"
    }

    /// `"Amélie": 32.700 → 33.912`.
    static func change(_ movie: Movie, to popularity: Double) -> String {
        "\"\(movie.title)\": \(Self.popularity(movie.popularity)) → \(Self.popularity(popularity))"
    }
}

/// How a movie's popularity moved in the latest refresh.
enum Trend: Equatable {
    /// The latest refresh raised it.
    case up
    /// The latest refresh lowered it.
    case down
    /// The latest refresh left it as it was (or it was matched after that refresh).
    case steady
    /// It has no popularity, or no refresh has run yet.
    case unknown

    /// `↑`, `↓`, `→`, or a space.
    var symbol: String {
        switch self {
        case .up: "↑"
        case .down: "↓"
        case .steady: "→"
        case .unknown: " "
        }
    }

    /// The trend of a movie from its samples (oldest first) and the latest refresh's time:
    /// up or down when the latest refresh saved a sample for it (compared with the value that
    /// sample replaced), steady otherwise.
    static func of(_ movie: Movie, samples: [PopularitySample], lastRefresh: Date?) -> Trend {
        guard movie.popularity != nil, let lastRefresh else { return .unknown }
        guard let latest = samples.last, latest.takenAt == lastRefresh,
            let previous = latest.previous ?? (samples.count >= 2 ? samples[samples.count - 2].popularity : nil)
        else { return .steady }
        return latest.popularity > previous ? .up : latest.popularity < previous ? .down : .steady
    }
}
