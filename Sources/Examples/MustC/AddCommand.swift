import ExampleSupport
import FetchKit
import Foundation

/// `mustc add <title> [--year <year>] [--member <name>]`: adds a favourite movie.
///
/// The movie is stored at once (one `persist` block) and shown; then TMDB is searched for its
/// title (released in `year`, when one is given), the first result is picked, and its id and
/// popularity are written back through another `persist` block, which also queues the movie
/// for the TMDB watchlist (`mustc sync` sends it). When the search has other matches, the next
/// few are shown with the way to pick one of them instead. When TMDB cannot be reached, the
/// movie stays stored without a match, and `mustc sync` looks it up later.
struct AddCommand {
    /// How many of the other matches are shown.
    static let othersShown = 3

    let shelf: MovieShelf
    let connection: TMDBConnection
    let title: String
    let year: Int?
    let member: String

    func run() async throws {
        Interrupts.keep("nothing was stored")
        let (movie, isNew) = try await shelf.add(title: title, member: member)
        Interrupts.keep(
            "\"\(movie.title)\" is stored \(isNew ? "without its popularity" : "as before"); 'mustc refresh' fetches it"
        )
        if isNew {
            show("Added \"\(movie.title)\" to \(movie.member)'s list.")
        } else {
            show("\"\(movie.title)\" is already on \(movie.member)'s list; fetching its popularity again.")
        }
        let released = year.map { " released in \($0)" } ?? ""
        show("Searching TMDB for \"\(title)\"\(released)…")
        let page: TMDBSearchPage
        do {
            page = try await connection.client.fetch(
                connection.search(title, year: year), extracting: .decode(TMDBSearchPage.self))
        } catch where TMDBConnection.isUnreachable(error) {
            show("Cannot reach \(connection.place) now; \"\(movie.title)\" is stored without a TMDB match.")
            show("'mustc sync' looks it up and puts it on the TMDB watchlist once TMDB can be reached.")
            return
        } catch {
            throw ExampleFailure(
                "\"\(movie.title)\" is stored without popularity: \(connection.explain(error))")
        }
        guard let match = page.results.first else {
            let hint = year == nil ? "" : " Without --year, every year is searched."
            show("No TMDB match for \"\(title)\"\(released); stored without popularity.\(hint)")
            return
        }
        show("Found \(Self.describe(match)).")
        showOthers(in: page, besides: match)
        guard let updated = try await shelf.setMatch(match, of: movie.id) else {
            throw ExampleFailure(
                "\"\(movie.title)\" was removed while its popularity was fetched",
                fix: "add it again with 'mustc add <title>'")
        }
        Interrupts.keep("\"\(updated.title)\" is stored with its popularity")
        show("Updated \(MovieFormat.summary(updated)).")
    }

    /// Shows the next few matches after the one picked, and how to pick one of them instead.
    private func showOthers(in page: TMDBSearchPage, besides match: TMDBMovie) {
        let others = page.results.dropFirst().prefix(Self.othersShown)
        guard !others.isEmpty else { return }
        let total = max(page.totalResults, page.results.count)
        show("That is the first of \(total) matches; the next \(others.count == 1 ? "is" : "are"):")
        for other in others { show("  \(Self.describe(other))") }
        var command = "mustc add \(Self.shellQuoted(title))"
        if member != MustC.defaultMember { command += " --member \(Self.shellQuoted(member, always: false))" }
        // A year tells the matches apart only when one of those shown has another year than the pick.
        if year == nil, let otherYear = others.compactMap(\.year).first(where: { $0 != match.year }) {
            show("To pick another, add it by its own title, or give the year: \(command) --year \(otherYear)")
        } else {
            show("To pick another, add it by its own title.")
        }
    }

    /// `TMDB 11 "Star Wars" (1977), popularity 85.200`.
    private static func describe(_ movie: TMDBMovie) -> String {
        let year = movie.year.map { " (\($0))" } ?? ""
        return "TMDB \(movie.id) \"\(movie.title)\"\(year), popularity \(MovieFormat.popularity(movie.popularity))"
    }

    /// The words as a shell needs them to arrive as one argument: in double quotes, or in
    /// single quotes when they hold a character that double quotes do not protect; with
    /// `always` false, a single plain word (letters, digits, `-`, `_`, `.`) stays as it is.
    static func shellQuoted(_ words: String, always: Bool = true) -> String {
        if !always, !words.isEmpty, words.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) }) {
            return words
        }
        if words.contains(where: { "\"$`\\!".contains($0) }) {
            return "'" + words.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
        }
        return "\"\(words)\""
    }
}
