import ExampleSupport
import Foundation
import Testing

/// The offline catalogues are plausible over their whole generated content.
///
/// The rules are written here, in tables of their own, independently of the generators'
/// tables: a generator that dates an Unreal Engine book to 1889, gives a cookbook to Packt or
/// photographs a harbour in Nairobi fails these tests.
@Suite struct CataloguePlausibilityTests {
    /// The latest year a generated book or movie can carry (the catalogues stop at 2025).
    static let latestYear = 2025

    // MARK: - Google Books

    /// The broad kind of a book, which decides the publishers that fit it.
    enum BookKind {
        /// Programming, game engines, game design.
        case technical
        /// Novels, classics, history, criticism, cooking.
        case trade
        /// Physics, electronics.
        case science
    }

    /// What a title containing `pattern` allows.
    struct TitleRule {
        /// Text the title contains (case-sensitive, as titles are capitalised).
        let pattern: String
        /// The earliest year such a book can be dated.
        let year: Int
        /// The earliest month in that year (1 when any month will do).
        var month = 1
        /// The kind of book, for the first rule of a title that gives one.
        var kind: BookKind?
        /// The plausible page counts, for the first rule of a title that gives them.
        var pages: ClosedRange<Int>?
    }

    /// The rules, most specific first. Every rule a title matches applies to its date; the
    /// first one with a kind (and pages) decides those. Every title must match one.
    static let titleRules: [TitleRule] = [
        // Unreal Engine 1 shipped in May 1998, 4 in March 2014, 5 (early access) in May 2021,
        // 5.1 in November 2022, 5.3 in September 2023.
        TitleRule(pattern: "Unreal Engine 5.3", year: 2023, month: 9),
        TitleRule(pattern: "Unreal Engine 5.1", year: 2022, month: 11),
        TitleRule(pattern: "Unreal Engine 5", year: 2021, month: 5),
        TitleRule(pattern: "Unreal Engine 4", year: 2014, month: 3),
        TitleRule(pattern: "Unreal Engine", year: 1998, month: 5, kind: .technical, pages: 150...900),
        TitleRule(pattern: "Blueprints", year: 2014),
        TitleRule(pattern: "Virtual Reality", year: 2014),
        TitleRule(pattern: "Unity", year: 2005, kind: .technical, pages: 150...900),
        TitleRule(pattern: "Godot 4", year: 2023, month: 3),
        TitleRule(pattern: "Godot", year: 2014, kind: .technical, pages: 150...900),
        TitleRule(pattern: "Swift Concurrency", year: 2021, month: 9),
        TitleRule(pattern: "Swift on the Server", year: 2016),
        TitleRule(pattern: "Swift", year: 2014, month: 6, kind: .technical, pages: 150...900),
        TitleRule(pattern: "Python", year: 1991, kind: .technical, pages: 150...900),
        TitleRule(pattern: "SQLite", year: 2000, kind: .technical, pages: 150...900),
        TitleRule(pattern: "Rust Atomics and Locks", year: 2023),
        TitleRule(pattern: "Rust", year: 2015, month: 5, kind: .technical, pages: 150...900),
        TitleRule(pattern: "Physics for Game Developers", year: 2000, kind: .technical, pages: 150...900),
        TitleRule(pattern: "Game Design", year: 1980, kind: .technical, pages: 150...900),
        TitleRule(pattern: "The Art of Computer Programming", year: 1968, kind: .technical, pages: 150...900),
        TitleRule(pattern: "The Art of Electronics", year: 1980, kind: .science, pages: 150...1_250),
        TitleRule(pattern: "The Art of War", year: 1905, kind: .trade, pages: 40...400),
        TitleRule(pattern: "War and Peace", year: 1869, kind: .trade, pages: 200...1_400),
        TitleRule(pattern: "Dawn", year: 1900, kind: .trade, pages: 100...800),
        TitleRule(pattern: "History of", year: 1850, kind: .trade, pages: 100...900),
        // The first Zeppelin flew in 1900; books on its war come after 1918.
        TitleRule(pattern: "Zeppelin", year: 1919, kind: .trade, pages: 100...600),
        TitleRule(pattern: "Physics", year: 1900, kind: .science, pages: 100...1_200),
        TitleRule(pattern: "Cooking", year: 1900, kind: .trade, pages: 60...800),
    ]

    /// A publisher: the years it published under this name and the kinds of book it prints.
    struct PublisherRule {
        /// The first year.
        let founded: Int
        /// The last year (nil: still publishing).
        var until: Int?
        /// The kinds of book.
        let kinds: Set<BookKind>
    }

    /// The publishers the catalogue may name; any other name fails.
    static let publisherRules: [String: PublisherRule] = [
        "Packt Publishing Ltd": PublisherRule(founded: 2004, kinds: [.technical]),
        "Apress": PublisherRule(founded: 1999, kinds: [.technical]),
        "No Starch Press": PublisherRule(founded: 1994, kinds: [.technical]),
        "O'Reilly & Associates": PublisherRule(founded: 1978, until: 2004, kinds: [.technical]),
        "O'Reilly Media, Inc.": PublisherRule(founded: 2004, kinds: [.technical]),
        "Manning Publications": PublisherRule(founded: 1990, kinds: [.technical]),
        "Manning": PublisherRule(founded: 1990, kinds: [.technical]),
        "Addison-Wesley Professional": PublisherRule(founded: 1942, kinds: [.technical]),
        "Pragmatic Bookshelf": PublisherRule(founded: 2003, kinds: [.technical]),
        "New Riders": PublisherRule(founded: 1988, kinds: [.technical]),
        "Wordware Publishing": PublisherRule(founded: 1983, until: 2012, kinds: [.technical]),
        "Morgan Kaufmann": PublisherRule(founded: 1984, kinds: [.technical]),
        "Focal Press": PublisherRule(founded: 1938, kinds: [.technical]),
        "MIT Press": PublisherRule(founded: 1962, kinds: [.technical, .science]),
        "Sams Publishing": PublisherRule(founded: 1946, kinds: [.technical]),
        "CRC Press": PublisherRule(founded: 1973, kinds: [.technical, .science]),
        "John Wiley & Sons": PublisherRule(founded: 1807, kinds: [.technical, .science]),
        "Springer": PublisherRule(founded: 1842, kinds: [.technical, .science]),
        "Springer Nature": PublisherRule(founded: 2015, kinds: [.technical, .science]),
        "McGraw-Hill": PublisherRule(founded: 1917, kinds: [.technical, .science]),
        "Prentice Hall": PublisherRule(founded: 1913, kinds: [.technical, .science]),
        "Dover Publications": PublisherRule(founded: 1941, kinds: [.science, .trade]),
        "Oxford University Press": PublisherRule(founded: 1586, kinds: [.science, .trade]),
        "Cambridge University Press": PublisherRule(founded: 1534, kinds: [.science, .trade]),
        "Penguin Books": PublisherRule(founded: 1935, kinds: [.trade]),
        "Penguin Classics": PublisherRule(founded: 1946, kinds: [.trade]),
        "Penguin UK": PublisherRule(founded: 1935, kinds: [.trade]),
        "Vintage": PublisherRule(founded: 1954, kinds: [.trade]),
        "Random House": PublisherRule(founded: 1927, kinds: [.trade]),
        "HarperCollins": PublisherRule(founded: 1989, kinds: [.trade]),
        "Harper & Brothers": PublisherRule(founded: 1833, until: 1962, kinds: [.trade]),
        "Macmillan": PublisherRule(founded: 1843, kinds: [.trade]),
        "Chatto & Windus": PublisherRule(founded: 1873, kinds: [.trade]),
        "Victor Gollancz": PublisherRule(founded: 1927, kinds: [.trade]),
        "Tor Books": PublisherRule(founded: 1980, kinds: [.trade]),
        "Faber & Faber": PublisherRule(founded: 1929, kinds: [.trade]),
        "Bloomsbury Publishing": PublisherRule(founded: 1986, kinds: [.trade]),
        "Alfred A. Knopf": PublisherRule(founded: 1915, kinds: [.trade]),
        "Houghton Mifflin": PublisherRule(founded: 1880, kinds: [.trade]),
        "Everyman's Library": PublisherRule(founded: 1906, kinds: [.trade]),
        "Modern Library": PublisherRule(founded: 1917, kinds: [.trade]),
        "Thomas Y. Crowell & Co.": PublisherRule(founded: 1876, until: 1979, kinds: [.trade]),
        "William Heinemann": PublisherRule(founded: 1890, kinds: [.trade]),
        "Wordsworth Editions": PublisherRule(founded: 1987, kinds: [.trade]),
        "Luzac & Co.": PublisherRule(founded: 1740, until: 1990, kinds: [.trade]),
        "Shambhala": PublisherRule(founded: 1969, kinds: [.trade]),
        "Routledge": PublisherRule(founded: 1836, kinds: [.trade]),
        "Longmans, Green & Co.": PublisherRule(founded: 1865, until: 1968, kinds: [.trade]),
        "Yale University Press": PublisherRule(founded: 1908, kinds: [.trade]),
        "Thames & Hudson": PublisherRule(founded: 1949, kinds: [.trade]),
        "T. Fisher Unwin": PublisherRule(founded: 1882, until: 1926, kinds: [.trade]),
        "The History Press": PublisherRule(founded: 2005, kinds: [.trade]),
        "Ian Allan Publishing": PublisherRule(founded: 1942, kinds: [.trade]),
        "Amberley Publishing": PublisherRule(founded: 2008, kinds: [.trade]),
        "Osprey Publishing": PublisherRule(founded: 1968, kinds: [.trade]),
        "Pen and Sword": PublisherRule(founded: 1990, kinds: [.trade]),
        "Hodder & Stoughton": PublisherRule(founded: 1868, kinds: [.trade]),
        "G. P. Putnam's Sons": PublisherRule(founded: 1838, kinds: [.trade]),
        "Fonthill Media": PublisherRule(founded: 2011, kinds: [.trade]),
        "Ten Speed Press": PublisherRule(founded: 1971, kinds: [.trade]),
        "Chronicle Books": PublisherRule(founded: 1967, kinds: [.trade]),
        "Ebury Press": PublisherRule(founded: 1961, kinds: [.trade]),
    ]

    /// A book as the checks see it: plain values read from the JSON the API would send.
    struct BookFacts {
        /// The title.
        var title: String
        /// `publishedDate`, if sent.
        var date: String?
        /// The publisher, if sent.
        var publisher: String?
        /// The authors (empty when none are sent).
        var authors: [String] = []
        /// `pageCount`, if sent.
        var pageCount: Int?
        /// `averageRating`, if sent.
        var averageRating: Double?
        /// `ratingsCount`, if sent.
        var ratingsCount: Int?
        /// The ISBN-13, if sent.
        var isbn13: String?
        /// The ISBN-10, if sent.
        var isbn10: String?
    }

    /// Everything implausible about a book, one sentence each; empty when it is plausible.
    static func problems(of book: BookFacts) -> [String] {
        var problems: [String] = []
        let rules = titleRules.filter { book.title.contains($0.pattern) }
        guard let kindRule = rules.first(where: { $0.kind != nil }), let kind = kindRule.kind else {
            return ["no rule covers the title \"\(book.title)\""]
        }
        var year: Int?
        if let text = book.date {
            if let date = CalendarDate(text) {
                year = date.year
                if date.year > latestYear { problems.append("dated \(text), after \(latestYear)") }
                for rule in rules where !date.isOnOrAfter(year: rule.year, month: rule.month) {
                    problems.append("dated \(text), before \(rule.year)-\(rule.month) (\"\(rule.pattern)\")")
                }
            } else {
                problems.append("the date \"\(text)\" is not yyyy, yyyy-MM or yyyy-MM-dd on the calendar")
            }
        }
        if let name = book.publisher {
            if let publisher = publisherRules[name] {
                if !publisher.kinds.contains(kind) { problems.append("\(name) does not publish \(kind) books") }
                if let year, year < publisher.founded || year > publisher.until ?? .max {
                    problems.append("\(name) did not publish under that name in \(year)")
                }
            } else {
                problems.append("unknown publisher \"\(name)\"")
            }
        }
        if let pages = book.pageCount, let range = kindRule.pages, !range.contains(pages) {
            problems.append("\(pages) pages, outside \(range)")
        }
        problems += ratingProblems(average: book.averageRating, count: book.ratingsCount)
        problems += authorProblems(book.authors, publisher: book.publisher)
        if let year, year < 1970, book.isbn13 != nil { problems.append("an ISBN on a book of \(year)") }
        if let isbn = book.isbn13, !isValidISBN13(isbn) { problems.append("invalid ISBN-13 \(isbn)") }
        if let isbn = book.isbn10, !isValidISBN10(isbn) { problems.append("invalid ISBN-10 \(isbn)") }
        return problems
    }

    /// The problems of a rating: both values or neither, 1 to 5 in halves, at least one
    /// rating, and a single rating is a whole number of stars.
    static func ratingProblems(average: Double?, count: Int?) -> [String] {
        switch (average, count) {
        case (nil, nil): return []
        case (let average?, let count?):
            var problems: [String] = []
            if !(1...5).contains(average) || (average * 2).rounded() != average * 2 {
                problems.append("average rating \(average) is not 1 to 5 in steps of 0.5")
            }
            if count < 1 { problems.append("\(count) ratings with an average") }
            if count == 1, average.rounded() != average { problems.append("one rating averaging \(average)") }
            return problems
        default: return ["averageRating and ratingsCount must come together"]
        }
    }

    /// The problems of an author list: no name twice, each a capitalised first and last name,
    /// none the publisher's.
    static func authorProblems(_ authors: [String], publisher: String?) -> [String] {
        var problems: [String] = []
        if Set(authors).count != authors.count { problems.append("an author twice in \(authors)") }
        for author in authors {
            let words = author.split(separator: " ")
            if words.count < 2 || !words.allSatisfy({ $0.first?.isUppercase == true }) {
                problems.append("\"\(author)\" does not look like a name")
            }
            if author == publisher { problems.append("\"\(author)\" is also the publisher") }
        }
        return problems
    }

    /// Whether an ISBN-13 has 13 digits, a `978`/`979` prefix and a valid check digit.
    static func isValidISBN13(_ isbn: String) -> Bool {
        let digits = isbn.compactMap(\.wholeNumberValue)
        let sum = digits.enumerated().reduce(0) { $0 + $1.element * ($1.offset % 2 == 0 ? 1 : 3) }
        return digits.count == 13 && isbn.count == 13 && sum % 10 == 0
            && (isbn.hasPrefix("978") || isbn.hasPrefix("979"))
    }

    /// Whether an ISBN-10 has 9 digits and a valid check character (a digit or `X`).
    static func isValidISBN10(_ isbn: String) -> Bool {
        let characters = Array(isbn)
        guard characters.count == 10 else { return false }
        var sum = 0
        for (offset, character) in characters.enumerated() {
            let value = offset == 9 && character == "X" ? 10 : character.wholeNumberValue
            guard let value else { return false }
            sum += value * (10 - offset)
        }
        return sum % 11 == 0
    }

    /// The facts of a volume, read from its JSON as the API sends it (encoded, then parsed).
    static func facts(of volume: BookCatalogue.Volume) throws -> BookFacts {
        let sent = try JSONSerialization.jsonObject(with: try JSONSerialization.data(withJSONObject: volume.json))
        let info = try #require((sent as? [String: Any])?["volumeInfo"] as? [String: Any])
        let identifiers = info["industryIdentifiers"] as? [[String: String]] ?? []
        func identifier(_ type: String) -> String? { identifiers.first { $0["type"] == type }?["identifier"] }
        return BookFacts(
            title: try #require(info["title"] as? String), date: info["publishedDate"] as? String,
            publisher: info["publisher"] as? String, authors: info["authors"] as? [String] ?? [],
            pageCount: info["pageCount"] as? Int, averageRating: number(info["averageRating"]),
            ratingsCount: info["ratingsCount"] as? Int, isbn13: identifier("ISBN_13"), isbn10: identifier("ISBN_10"))
    }

    /// The book rules reject what the issue reported, and more, so they can fail.
    @Test func theRulesCatchTheDatesTheIssueReported() {
        // The issue: these came out of the generator before it followed the rules.
        let reported = [
            BookFacts(title: "Game Development with Unreal Engine 5.1 C++ Programming", date: "1889-06-27"),
            BookFacts(title: "Practical Unreal Engine 4 Essentials", date: "1865"),
            BookFacts(title: "Learning Unreal Engine 5.3", date: "2023-06"),
            BookFacts(title: "Cooking for One", date: "1999", publisher: "Packt Publishing Ltd"),
            BookFacts(title: "Unity in Action", date: "2001", publisher: "Packt Publishing Ltd"),
            BookFacts(title: "Swift Programming", date: "2016-02-30"),
            BookFacts(title: "Rust in Action", date: "2027"),
            BookFacts(title: "Python Tricks", date: "2019", authors: ["Maria Chen", "Maria Chen"]),
            BookFacts(title: "Python Tricks", date: "2019", pageCount: 12),
            BookFacts(title: "Python Tricks", date: "2019", averageRating: 3.5, ratingsCount: 1),
            BookFacts(title: "War and Peace", date: "1955", isbn13: "9780140447934"),
            BookFacts(title: "Knitting for Pleasure", date: "1990"),
        ]
        for book in reported { #expect(!Self.problems(of: book).isEmpty, "\(book)") }
        let fine = BookFacts(
            title: "Unreal Engine 5 Game Development", date: "2023-02-14", publisher: "Packt Publishing Ltd",
            authors: ["Maria Chen", "Tom Walsh"], pageCount: 420, averageRating: 4.5, ratingsCount: 6,
            isbn13: "9781801810661", isbn10: "1801810664")
        #expect(Self.problems(of: fine).isEmpty)
    }

    /// Every one of the 1,200 volumes passes every book rule.
    @Test func everyVolumeIsPlausible() async throws {
        var failures: [String] = []
        for (index, volume) in BookCatalogue().volumes.enumerated() {
            if index % 50 == 0 { await Task.yield() }  // Let the suite's other tests run meanwhile.
            let problems = Self.problems(of: try Self.facts(of: volume))
            if !problems.isEmpty { failures.append("\(volume.id) \"\(volume.title)\": \(problems)") }
        }
        #expect(failures.isEmpty, "\(failures.count) implausible volumes, such as \(failures.prefix(5))")
    }

    /// Unreal Engine books are dated 1998 to 2025, version 4 from 2014, version 5 from 2021.
    @Test func unrealEngineBooksAreDatedAfterTheirEngine() throws {
        let unreal = BookCatalogue().matches("Unreal Engine")
        #expect(unreal.count > 400)
        for volume in unreal {
            guard let year = volume.publishedDate.flatMap({ Int($0.prefix(4)) }) else { continue }
            #expect((1998...Self.latestYear).contains(year), "\(volume.title) (\(year))")
            if volume.title.contains("Unreal Engine 5") { #expect(year >= 2021, "\(volume.title) (\(year))") }
            if volume.title.contains("Unreal Engine 4") { #expect(year >= 2014, "\(volume.title) (\(year))") }
        }
        // Plenty of them have the fields the checks look at, so the checks are not vacuous.
        #expect(unreal.filter { $0.publishedDate != nil }.count > 300)
        #expect(unreal.filter { $0.publisher != nil }.count > 300)
    }

    /// Ids and ISBNs are unique; most volumes have a page count, some have ratings, some are old.
    @Test func volumesHaveUniqueIDsAndISBNsAndSomeRatings() {
        let volumes = BookCatalogue().volumes
        #expect(Set(volumes.map(\.id)).count == volumes.count)
        let isbns = volumes.compactMap(\.isbn13)
        #expect(Set(isbns).count == isbns.count)
        #expect(volumes.filter { $0.pageCount != nil }.count > volumes.count * 3 / 4)
        let rated = volumes.filter { $0.averageRating != nil }.count
        #expect(rated > volumes.count / 10 && rated < volumes.count / 2)
        // Old books are in the catalogue too (War and Peace, histories), without ISBNs.
        #expect(volumes.contains { ($0.publishedDate.flatMap { Int($0.prefix(4)) } ?? 9999) < 1950 })
    }

    // MARK: - TMDB

    /// TMDB's movie genre ids.
    static let tmdbGenres: Set<Int> = [
        28, 12, 16, 35, 80, 99, 18, 10751, 14, 36, 27, 10402, 9648, 10749, 878, 53, 10752, 37, 10770,
    ]

    /// Everything implausible about a movie detail object, one sentence each.
    static func problems(ofMovie movie: [String: Any]) -> [String] {
        var problems: [String] = []
        let date = movie["release_date"] as? String
        if let date, !date.isEmpty {
            if let parsed = CalendarDate(date), parsed.day != nil {
                if !(1900...latestYear).contains(parsed.year) { problems.append("released in \(parsed.year)") }
            } else {
                problems.append("release date \"\(date)\" is not a yyyy-MM-dd calendar date")
            }
        } else if date == nil {
            problems.append("no release_date key")
        }
        let popularity = number(movie["popularity"]) ?? -1
        if !(0.6...5_000).contains(popularity) { problems.append("popularity \(popularity)") }
        let average = number(movie["vote_average"]) ?? -1
        let count = movie["vote_count"] as? Int ?? -1
        if !(0...10).contains(average) || (average * 10).rounded() != average * 10 {
            problems.append("vote_average \(average) is not 0 to 10 with one decimal")
        }
        if count < 0 { problems.append("vote_count \(count)") }
        if count == 0, average != 0 { problems.append("no votes averaging \(average)") }
        let genres = movie["genre_ids"] as? [Int] ?? [-1]
        if !Set(genres).isSubset(of: tmdbGenres) || Set(genres).count != genres.count {
            problems.append("genres \(genres)")
        }
        if (movie["original_language"] as? String)?.count != 2 { problems.append("original_language") }
        return problems
    }

    /// The movie rules reject impossible dates, out-of-range values and votes without voters.
    @Test func theMovieRulesCatchImplausibleValues() {
        let good: [String: Any] = [
            "release_date": "2009-04-02", "popularity": 38.2, "vote_average": 6.7, "vote_count": 7104,
            "genre_ids": [28], "original_language": "en",
        ]
        #expect(Self.problems(ofMovie: good).isEmpty)
        let changes: [(String, Any)] = [
            ("release_date", "2009-0-14"), ("release_date", "2009-02-30"), ("release_date", "1890-05-01"),
            ("release_date", "2031-01-01"), ("popularity", 0.0), ("popularity", 99_999.0), ("vote_average", 11.0),
            ("vote_average", 6.25), ("vote_count", -1), ("vote_count", 0), ("genre_ids", [4711]),
        ]
        for (key, value) in changes {
            var movie = good
            movie[key] = value
            #expect(!Self.problems(ofMovie: movie).isEmpty, "\(key): \(value)")
        }
    }

    /// Every movie, with fixed or drifted popularity, passes every movie rule.
    @Test(arguments: [nil, 1, 42, 0xDEAD_BEEF] as [UInt64?])
    func everyMovieIsPlausible(driftSeed: UInt64?) async throws {
        let catalogue = MovieCatalogue(driftSeed: driftSeed)
        #expect(catalogue.movies.count >= 250)
        var failures: [String] = []
        var usual = 0
        for id in catalogue.movies.keys.sorted() {
            await Task.yield()  // Let the suite's other tests run meanwhile.
            let (status, body) = catalogue.movieResponse(id: id)
            let movie = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
            #expect(status == 200)
            let problems = Self.problems(ofMovie: movie)
            if !problems.isEmpty { failures.append("\(id) \(movie["title"] ?? ""): \(problems)") }
            if let popularity = Self.number(movie["popularity"]), (1...100).contains(popularity) {
                usual += 1
            }
        }
        #expect(failures.isEmpty, "\(failures.count) implausible movies, such as \(failures.prefix(5))")
        // Most popularity values are TMDB's usual 1 to 100; a few are in the long tail.
        #expect(usual >= catalogue.movies.count * 3 / 4, "\(usual) of \(catalogue.movies.count)")
    }

    /// A generated "… 2" or "… 3" has a previous part, released before it.
    @Test func sequelsComeOutAfterTheFilmBeforeThem() {
        let movies = Array(MovieCatalogue().movies.values)
        var sequels = 0
        for movie in movies {
            guard let last = movie.title.split(separator: " ").last, let part = Int(last) else { continue }
            let base = String(movie.title.dropLast(last.count + 1))
            guard !movie.releaseDate.isEmpty, !["Fast & Furious", "Kung Fu Panda"].contains(base) else { continue }
            #expect((2...9).contains(part), "\(movie.title)")
            let earlier = movies.filter { $0.title == (part == 2 ? base : "\(base) \(part - 1)") }
            #expect(!earlier.isEmpty, "\(movie.title) has no part \(part - 1)")
            // The earliest release of the previous part (a remake may come later) precedes it.
            if let previous = earlier.map(\.releaseDate).filter({ !$0.isEmpty }).min() {
                #expect(previous < movie.releaseDate, "\(movie.title) \(movie.releaseDate) after \(previous)")
            }
            sequels += 1
        }
        #expect(sequels > 10)
    }

    /// A drift seed moves each popularity by at most 8 %.
    @Test func driftMovesPopularityByAtMostEightPercent() {
        let fixed = MovieCatalogue(driftSeed: nil).movies
        for seed: UInt64 in [1, 2, 3, 99] {
            for (id, movie) in MovieCatalogue(driftSeed: seed).movies {
                let base = fixed[id]?.popularity ?? 0
                #expect(abs(movie.popularity - base) <= base * 0.08 + 0.001, "\(id): \(base) → \(movie.popularity)")
            }
        }
    }

    // MARK: - Flickr

    /// A city of the photo stream, as the checks know it.
    struct City {
        /// Flickr's place id.
        let placeID: String
        /// The centre's latitude.
        let latitude: Double
        /// The centre's longitude.
        let longitude: Double
    }

    /// The stream's 12 cities.
    static let cities: [String: City] = [
        "San Francisco": City(placeID: "7.MJR8tTVrIO1EgB", latitude: 37.7749, longitude: -122.4194),
        "Oslo": City(placeID: "rXYsMN5TUb4a1fCr", latitude: 59.9139, longitude: 10.7522),
        "Tokyo": City(placeID: "4Tk6b2JVUrtzrk4", latitude: 35.6762, longitude: 139.6503),
        "Cape Town": City(placeID: "fZ0jLhZQU7qjhC8", latitude: -33.9249, longitude: 18.4241),
        "Buenos Aires": City(placeID: "4qNuW3ZUVrIZbA", latitude: -34.6037, longitude: -58.3816),
        "Reykjavík": City(placeID: "zo8kVWBTUb5YbQ", latitude: 64.1466, longitude: -21.9426),
        "Sydney": City(placeID: "8vXXR3NWUrJxmQ", latitude: -33.8688, longitude: 151.2093),
        "Nairobi": City(placeID: "Vp5Vh9dTUb5LlQ", latitude: -1.2921, longitude: 36.8219),
        "Mumbai": City(placeID: "tI9yS7FVUb5tPQ", latitude: 19.0760, longitude: 72.8777),
        "Anchorage": City(placeID: "j9r2UtZWUb4bZA", latitude: 61.2181, longitude: -149.9003),
        "Lima": City(placeID: "GOFz6edVUrLoEg", latitude: -12.0464, longitude: -77.0428),
        "Alameda": City(placeID: "FmOEZR5UV7P7KfBdxg", latitude: 37.765819, longitude: -122.242912),
    ]

    /// Words a title may use only in some cities: water only on a coast, snow and northern
    /// lights only in the north, monsoon only in Mumbai, and so on.
    static let wordsThatNeedAPlace: [String: Set<String>] = {
        let coast: Set<String> = [
            "San Francisco", "Oslo", "Tokyo", "Cape Town", "Buenos Aires", "Reykjavík", "Sydney", "Mumbai",
            "Anchorage", "Lima", "Alameda",
        ]
        let north: Set<String> = ["Oslo", "Reykjavík", "Anchorage"]
        var words: [String: Set<String>] = [:]
        for word in ["harbour", "harbor", "bay", "beach", "ferry", "ferries", "fjord", "inlet", "estuary", "sea"] {
            words[word] = coast
        }
        for word in ["snow", "ski", "northern", "aurora"] { words[word] = north }
        words["monsoon"] = ["Mumbai"]
        words["cherry"] = ["Tokyo"]
        words["jacaranda"] = ["Cape Town", "Buenos Aires", "Sydney", "Nairobi", "Lima"]
        words["jacarandas"] = words["jacaranda"]
        words["moose"] = ["Anchorage", "Oslo"]
        return words
    }()

    /// The moment tick `tick` stands for: one tick every 10 seconds from 2026-01-01T00:00:00Z.
    static func moment(ofTick tick: Int) -> Int { 1_767_225_600 + tick * 10 }

    /// Flickr opened on 2004-02-10.
    static let flickrLaunch = 1_076_371_200

    /// Everything implausible about a photo of the stream at `tick`, one sentence each.
    static func problems(ofPhoto photo: [String: Any], tick: Int) -> [String] {
        var problems: [String] = []
        let placeID = photo["place_id"] as? String
        guard let entry = cities.first(where: { $0.value.placeID == placeID }) else {
            return ["unknown place \(placeID ?? "nil")"]
        }
        let (name, city) = (entry.key, entry.value)
        let title = photo["title"] as? String ?? ""
        for other in cities.keys where other != name && title.contains(other) {
            problems.append("\"\(title)\" names \(other) but was taken in \(name)")
        }
        for word in title.lowercased().split(whereSeparator: { !$0.isLetter }) {
            if let places = wordsThatNeedAPlace[String(word)], !places.contains(name) {
                problems.append("\"\(title)\": no \(word) in \(name)")
            }
        }
        let details = (photo["description"] as? [String: Any])?["_content"] as? String ?? ""
        if !details.isEmpty, details != "Taken in \(name)." { problems.append("description \"\(details)\" in \(name)") }
        let uploaded = (photo["dateupload"] as? String).flatMap { Int($0) } ?? -1
        if uploaded > moment(ofTick: tick) { problems.append("uploaded after the tick's moment") }
        if uploaded < flickrLaunch { problems.append("uploaded before Flickr existed") }
        if let latitude = coordinate(photo["latitude"]), let longitude = coordinate(photo["longitude"]),
            latitude != 0 || longitude != 0
        {
            let distance = kilometres(from: (city.latitude, city.longitude), to: (latitude, longitude))
            if distance > 10 { problems.append("\(Int(distance)) km from \(name)") }
        }
        let owner = photo["owner"] as? String ?? ""
        let ownerName = photo["ownername"] as? String ?? ""
        if owner.split(separator: "@").count != 2 || !owner.contains("@N") {
            problems.append("owner id \(owner)")
        }
        if ownerName.split(separator: " ").count < 2 { problems.append("owner name \"\(ownerName)\"") }
        return problems
    }

    /// A coordinate sent as a number or a string.
    static func coordinate(_ value: Any?) -> Double? {
        (value as? String).flatMap(Double.init) ?? number(value)
    }

    /// A JSON number (an integer or not), whether parsed or built in memory.
    static func number(_ value: Any?) -> Double? {
        switch value {
        case let integer as Int: Double(integer)
        case let double as Double: double
        case let number as NSNumber: number.doubleValue
        default: nil
        }
    }

    /// The great-circle distance between two points, in kilometres.
    static func kilometres(from a: (Double, Double), to b: (Double, Double)) -> Double {
        let radians = Double.pi / 180
        let (lat1, lat2) = (a.0 * radians, b.0 * radians)
        let (dLat, dLon) = ((b.0 - a.0) * radians, (b.1 - a.1) * radians)
        let h = sin(dLat / 2) * sin(dLat / 2) + cos(lat1) * cos(lat2) * sin(dLon / 2) * sin(dLon / 2)
        return 6_371 * 2 * asin(min(1, h.squareRoot()))
    }

    /// The photo rules reject a harbour in Nairobi, a future upload, a far-off position and more.
    @Test func thePhotoRulesCatchWhatTheIssueDescribes() {
        let good: [String: Any] = [
            "place_id": "Vp5Vh9dTUb5LlQ", "title": "City Market, Nairobi", "description": ["_content": ""],
            "dateupload": "\(Self.moment(ofTick: 3))", "latitude": -1.28, "longitude": 36.82, "owner": "1@N02",
            "ownername": "Wanjiru Kamau",
        ]
        #expect(Self.problems(ofPhoto: good, tick: 3).isEmpty)
        let changes: [(String, Any)] = [
            ("title", "Harbour at dusk, Nairobi"), ("title", "Snow on the roofs, Nairobi"),
            ("title", "Market day, Lima"), ("dateupload", "\(Self.moment(ofTick: 3) + 1)"),
            ("dateupload", "1000000000"), ("latitude", -1.9), ("place_id", "nowhere"),
            ("description", ["_content": "Taken in Oslo."]),
        ]
        for (key, value) in changes {
            var photo = good
            photo[key] = value
            #expect(!Self.problems(ofPhoto: photo, tick: 3).isEmpty, "\(key): \(value)")
        }
    }

    /// Every photo of the first 40 ticks (and of a late-2026 tick) passes every photo rule.
    @Test func everyPhotoOfTheFirstTicksIsPlausible() async throws {
        let stream = PhotoStream()
        var failures: [String] = []
        var owners: [String: String] = [:]
        var places = Set<String>()
        // Every photo of the first 40 ticks, each at least once at the tick that brought it (the
        // newest 25 of a tick are its new ones), and the window of a tick in late 2026.
        for (tick, perPage) in [(0, 500)] + (1..<40).map({ ($0, 100) }) + [(2_811_235, 500)] {
            await Task.yield()  // Seconds of work in all: let the suite's other tests run between ticks.
            let body = stream.recentResponse(tick: tick, page: 1, perPage: perPage)
            let object = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
            let photos = try #require((object["photos"] as? [String: Any])?["photo"] as? [[String: Any]])
            #expect(photos.count == min(perPage, 400 + tick * 25))
            for photo in photos {
                let problems = Self.problems(ofPhoto: photo, tick: tick)
                if !problems.isEmpty { failures.append("tick \(tick), \(photo["id"] ?? ""): \(problems)") }
                let owner = photo["owner"] as? String ?? ""
                let name = photo["ownername"] as? String ?? ""
                #expect(owners.updateValue(name, forKey: owner).map { $0 == name } ?? true, "\(owner) renamed")
                places.insert(photo["place_id"] as? String ?? "")
            }
        }
        #expect(failures.isEmpty, "\(failures.count) implausible photos, such as \(failures.prefix(5))")
        #expect(places.count == Self.cities.count)
    }
}

/// A date as Google Books and TMDB send it: `yyyy`, `yyyy-MM` or `yyyy-MM-dd`, on the calendar.
struct CalendarDate {
    /// The year.
    let year: Int
    /// The month, if the text has one.
    let month: Int?
    /// The day, if the text has one.
    let day: Int?

    /// Parses `text`; nil unless it is one of the three forms and a real calendar date.
    init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        let widths = [4, 2, 2]
        guard (1...3).contains(parts.count),
            zip(parts, widths).allSatisfy({ $0.count == $1 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) })
        else { return nil }
        let numbers = parts.compactMap { Int($0) }
        guard numbers.count == parts.count else { return nil }
        year = numbers[0]
        month = numbers.count > 1 ? numbers[1] : nil
        day = numbers.count > 2 ? numbers[2] : nil
        var components = DateComponents(year: year, month: month ?? 1, day: day ?? 1)
        components.calendar = Calendar(identifier: .gregorian)
        components.calendar?.timeZone = TimeZone(identifier: "UTC") ?? .current
        guard (1...12).contains(month ?? 1), components.isValidDate else { return nil }
    }

    /// Whether the date is in or after the given month (a bare year counts as any month of it).
    func isOnOrAfter(year earliest: Int, month earliestMonth: Int) -> Bool {
        if year != earliest { return year > earliest }
        return (month ?? 12) >= earliestMonth
    }
}
