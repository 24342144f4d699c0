import ExampleSupport
import Foundation
import Testing

/// The titles a newcomer types first are found, offline, as the first result: films for
/// `mustc add`, books for `booklab search`. Hostile searches get a clear empty answer.
@Suite struct FamousTitlesTests {
    static let movies = MovieCatalogue(driftSeed: nil)
    static let books = BookCatalogue()

    /// What a newcomer types into `mustc add`, and the TMDB id of the film it must pick.
    static let famousFilms: [(query: String, id: Int)] = [
        ("The Godfather", 238), ("Star Wars", 11), ("Titanic", 597), ("Blade Runner", 78), ("Alien", 348),
        ("Arrival", 329865), ("Inception", 27205), ("Fight Club", 550), ("The Shawshank Redemption", 278),
        ("Pulp Fiction", 680), ("Forrest Gump", 13), ("The Dark Knight", 155), ("Interstellar", 157336),
        ("The Matrix", 603), ("Jurassic Park", 329), ("Avatar", 19995), ("Avengers: Endgame", 299534),
        ("Toy Story", 862), ("The Lion King", 8587), ("Back to the Future", 105), ("Gladiator", 98),
        ("Schindler's List", 424), ("Schindlers List", 424), ("Goodfellas", 769), ("Casablanca", 289),
        ("Citizen Kane", 15), ("Psycho", 539), ("Jaws", 578), ("Seven Samurai", 346), ("Spirited Away", 129),
        ("Parasite", 496243), ("Amélie", 194), ("amelie", 194), ("Oppenheimer", 872585), ("Frozen", 109445),
        ("Up", 14160), ("Dune", 438631), ("Harry Potter", 671), ("Lord of the Rings Fellowship", 120),
        ("Empire Strikes Back", 1891), ("the godfather part ii", 240), ("Léon", 101), ("La vita è bella", 637),
        ("東京物語", 18148), ("千と千尋の神隠し", 129), ("기생충", 496243), ("神隠し", 129), ("Fast & Furious", 13804),
        ("Romeo + Juliet", 454), ("Mr. & Mrs. Smith", 787), ("Se7en", 807), ("WALL-E", 10681), ("2001", 62),
    ]

    /// What a newcomer types into `booklab search`, and the title of the book it must list first.
    static let famousBooks: [(query: String, title: String)] = [
        ("Harry Potter", "Harry Potter and the Philosopher's Stone"), ("Dune", "Dune"), ("The Hobbit", "The Hobbit"),
        ("Lord of the Rings", "The Fellowship of the Ring"), ("Pride and Prejudice", "Pride and Prejudice"),
        ("1984", "Nineteen Eighty-Four"), ("To Kill a Mockingbird", "To Kill a Mockingbird"),
        ("The Great Gatsby", "The Great Gatsby"), ("Moby Dick", "Moby-Dick"), ("War and Peace", "War and Peace"),
        ("Crime and Punishment", "Crime and Punishment"), ("Don Quixote", "Don Quixote"), ("Hamlet", "Hamlet"),
        ("The Catcher in the Rye", "The Catcher in the Rye"), ("Brave New World", "Brave New World"),
        ("Jane Eyre", "Jane Eyre"), ("Frankenstein", "Frankenstein"), ("Dracula", "Dracula"),
        ("The Hunger Games", "The Hunger Games"), ("A Game of Thrones", "A Game of Thrones"),
        ("Game of Thrones", "A Game of Thrones"), ("The Da Vinci Code", "The Da Vinci Code"),
        ("The Alchemist", "The Alchemist"), ("The Little Prince", "The Little Prince"), ("Sapiens", "Sapiens"),
        ("A Brief History of Time", "A Brief History of Time"), ("The Art of War", "The Art of War"),
        ("It", "It"), ("The Shining", "The Shining"), ("Sherlock Holmes", "The Adventures of Sherlock Holmes"),
        ("Murder on the Orient Express", "Murder on the Orient Express"),
        ("Agatha Christie", "The Mysterious Affair at Styles"),
        ("Discworld", "The Colour of Magic"), ("Narnia", "The Lion, the Witch and the Wardrobe"),
        ("One Hundred Years of Solitude", "One Hundred Years of Solitude"),
        ("Cien años de soledad", "Cien años de soledad"),
        ("Война и мир", "Война и мир"), ("Le Petit Prince", "Le Petit Prince"), ("ノルウェイの森", "ノルウェイの森"),
        ("The Pragmatic Programmer", "The Pragmatic Programmer"), ("Clean Code", "Clean Code"),
        ("The C Programming Language", "The C Programming Language"), ("Design Patterns", "Design Patterns"),
        ("Structure and Interpretation of Computer Programs", "Structure and Interpretation of Computer Programs"),
        ("SICP", "Structure and Interpretation of Computer Programs"),
        ("The Art of Computer Programming", "The Art of Computer Programming, Volume 1: Fundamental Algorithms"),
        ("Swift programming", "Swift Programming"), ("Python Crash Course", "Python Crash Course"),
        ("Introduction to Algorithms", "Introduction to Algorithms"),
        ("Harry Potter Sorcerer's Stone", "Harry Potter and the Philosopher's Stone"),
    ]

    @Test func atLeastThirtyFamousFilmsAreFoundFirst() {
        #expect(Self.famousFilms.count >= 30)
        var misses: [String] = []
        for (query, id) in Self.famousFilms {
            let first = Self.movies.matches(query).first
            if first?.id != id { misses.append("\(query): \(first.map { "\($0.title) (\($0.id))" } ?? "nothing")") }
        }
        #expect(misses.isEmpty, "\(misses)")
    }

    @Test func atLeastThirtyFamousBooksAreFoundFirst() {
        #expect(Self.famousBooks.count >= 30)
        var misses: [String] = []
        for (query, title) in Self.famousBooks {
            let first = Self.books.matches(query).first
            if first?.title != title { misses.append("\(query): \(first?.title ?? "nothing")") }
        }
        #expect(misses.isEmpty, "\(misses)")
    }

    @Test func aSearchFindsEveryFilmOfItsSeriesRankedByPopularityWithTheExactTitleFirst() {
        let found = Self.movies.matches("star wars")
        #expect(found.first?.id == 11)
        #expect(found.count >= 11)
        #expect(Array(found.dropFirst()).map(\.popularity) == found.dropFirst().map(\.popularity).sorted(by: >))
        // Words in any order, case and accents ignored.
        #expect(Set(Self.movies.matches("WARS star").map(\.id)) == Set(found.map(\.id)))
    }

    @Test func theYearPicksAmongFilmsOfTheSameTitle() {
        #expect(Self.movies.matches("Dune", year: 1984).first?.id == 841)
        #expect(Self.movies.matches("Dune", year: 2021).first?.id == 438631)
        #expect(Self.movies.matches("Dune", year: 1999).isEmpty)
        #expect(Self.movies.matches("The Lion King", year: 2019).first?.id == 420818)
    }

    /// Searches that are empty, punctuation, far too long, or emoji: no results, quickly.
    static let emptyAnswers = ["", "   ", "!!!", "?!.,;:-", "🎬", "🍿🎥", String(repeating: "x", count: 10_000)]

    @Test(arguments: emptyAnswers)
    func aHostileSearchFindsNothing(query: String) throws {
        #expect(Self.movies.matches(query).isEmpty)
        #expect(Self.books.matches(query).isEmpty)
        let body = Self.movies.searchResponse(query: query, page: 1)
        let object = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        #expect(object["total_results"] as? Int == 0)
        let books = Self.books.searchResponse(query: query, startIndex: 0, maxResults: 40)
        let volumes = try #require(try JSONSerialization.jsonObject(with: books) as? [String: Any])
        #expect(volumes["items"] == nil && volumes["totalItems"] as? Int == 0)
    }

    @Test func rightToLeftTitlesAreFound() {
        #expect(Self.movies.matches("جدایی نادر از سیمین").first?.title == "A Separation")
        #expect(Self.movies.matches("ואלס עם באשיר").first?.title == "Waltz with Bashir")
        #expect(Self.books.matches("بين القصرين").first?.title == "بين القصرين")
        #expect(Self.books.matches("بوف کور").first?.title == "بوف کور")
        // An emoji beside the words does not hide them.
        #expect(Self.movies.matches("Up 🎈").first?.id == 14160)
    }
}
