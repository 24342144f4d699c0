import ExampleSupport
import FetchKit
import Foundation

/// `mustc add <title> [--member <name>]`: the seed's "add a favourite movie" flow.
///
/// The movie is stored at once (one `persist` block) and shown; then TMDB is searched for its
/// title, the first result is decoded at the path `results.first`, and its id and popularity
/// are written back through another `persist` block.
struct AddCommand {
    let shelf: MovieShelf
    let connection: TMDBConnection
    let title: String
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
        show("Searching TMDB for \"\(title)\"…")
        let match: TMDBMovie?
        do {
            match = try await connection.client.fetch(
                connection.search(title), extracting: .decode(TMDBMovie?.self, at: "results.first"))
        } catch {
            throw ExampleFailure(
                "\"\(movie.title)\" is stored without popularity: \(connection.explain(error))")
        }
        guard let match else {
            show("No TMDB match for \"\(title)\"; stored without popularity.")
            return
        }
        let year = match.year.map { " (\($0))" } ?? ""
        show(
            "Found TMDB \(match.id) \"\(match.title)\"\(year), popularity \(MovieFormat.popularity(match.popularity)).")
        guard let updated = try await shelf.setMatch(match, of: movie.id) else {
            throw ExampleFailure(
                "\"\(movie.title)\" was removed while its popularity was fetched",
                fix: "add it again with 'mustc add <title>'")
        }
        Interrupts.keep("\"\(updated.title)\" is stored with its popularity")
        show("Updated \(MovieFormat.summary(updated)).")
    }
}
