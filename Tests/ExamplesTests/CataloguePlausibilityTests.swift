import ExampleSupport
import Foundation
import Testing

/// The offline catalogues are plausible, checked over every generated entry against rules
/// written here, apart from the generators' own tables: books are not older than their
/// subject, publishers existed when they published, movies and photos have real dates.
@Suite struct CataloguePlausibilityTests {
    // MARK: Books

    /// Title words and the first year a book with them could appear.
    static let bookSubjects: [(words: String, since: Int)] = [
        ("Unreal Engine", 1998),  // the first Unreal Engine shipped with Unreal, 1998
        ("Unreal Engine 4", 2014), ("Unreal Engine 5", 2021), ("Unreal Engine 5.1", 2022),
        ("Unreal Engine 5.3", 2023), ("Blueprints", 2014), ("Virtual Reality", 2012), ("Unity", 2005),
        ("Godot", 2014), ("Godot 4", 2023), ("Swift", 2014), ("Swift Concurrency", 2021), ("Python", 1991),
        ("SQLite", 2000), ("Rust", 2010), ("Atomics and Locks", 2023), ("War and Peace", 1869),
        ("Zeppelin", 1900), ("Great War", 1914),
        ("Physics for Game Developers", 2000),
    ]

    /// Publishers and the year each was founded.
    static let publishers: [String: Int] = [
        "CRC Press": 1973, "Packt Publishing Ltd": 2004, "Apress": 1999, "No Starch Press": 1994,
        "O'Reilly Media, Inc.": 1978, "Manning": 1990, "Addison-Wesley Professional": 1942,
        "Pragmatic Bookshelf": 2003, "Springer": 1842, "Penguin UK": 1935, "Vintage": 1954,
        "Oxford University Press": 1586, "Faber & Faber": 1929, "Harper & Brothers": 1817, "Macmillan": 1843,
        "Random House": 1927, "HarperCollins": 1989,
    ]
    static let technicalPublishers: Set<String> = [
        "CRC Press", "Packt Publishing Ltd", "Apress", "No Starch Press", "O'Reilly Media, Inc.", "Manning",
        "Addison-Wesley Professional", "Pragmatic Bookshelf", "Springer",
    ]
    static let technicalWords = ["Unreal", "Unity", "Godot", "Swift", "Python", "SQLite", "Rust", "Debugging"]
    static let tradeWords = ["Dawn", "War and Peace", "History of", "Zeppelin", "Cooking", "Art of War"]

    @Test func everyBookIsDatedAfterItsSubjectExistedAndPublishedByAPublisherOfItsTime() throws {
        let volumes = BookCatalogue().volumes
        #expect(volumes.count >= 1_000)
        var dated = 0
        for volume in volumes {
            let name = "\(volume.title) [\(volume.id)]"
            let year = try #require(
                Self.year(of: volume.publishedDate), "\(name): bad date \(volume.publishedDate ?? "")")
            guard let year else { continue }
            dated += 1
            #expect(year <= 2025, "\(name): published in \(year)")
            for (words, since) in Self.bookSubjects where volume.title.contains(words) {
                #expect(year >= since, "\(name): \(words) books from \(since), not \(year)")
            }
            if let publisher = volume.publisher {
                let founded = try #require(Self.publishers[publisher], "\(name): unknown publisher \(publisher)")
                #expect(founded <= year, "\(name): \(publisher) was founded in \(founded), after \(year)")
                if Self.technicalWords.contains(where: volume.title.contains) {
                    #expect(Self.technicalPublishers.contains(publisher), "\(name): \(publisher)")
                }
                if Self.tradeWords.contains(where: volume.title.contains) {
                    #expect(!Self.technicalPublishers.contains(publisher), "\(name): \(publisher)")
                }
            }
            if volume.isbn13 != nil { #expect(year >= 1970, "\(name): an ISBN in \(year)") }
        }
        #expect(dated > volumes.count / 2)
    }

    @Test func everyBookHasPlausibleAuthorsPagesAndRatings() throws {
        let name = try Regex(#"^\p{Lu}[\p{L}']+( \p{Lu}[\p{L}']+)+$"#)
        for volume in BookCatalogue().volumes {
            #expect(Set(volume.authors).count == volume.authors.count, "\(volume.authors)")
            // A classic's editions keep its author.
            if volume.title.hasPrefix("War and Peace Volume") && !volume.authors.isEmpty {
                #expect(volume.authors == ["Leo Tolstoy"], "\(volume.title): \(volume.authors)")
            }
            if volume.title == "The Art of War" && !volume.authors.isEmpty {
                #expect(volume.authors == ["Sun Tzu"], "\(volume.authors)")
            }
            for author in volume.authors { #expect(author.wholeMatch(of: name) != nil, "\(author)") }
            if let pages = volume.pageCount { #expect((48...1_500).contains(pages), "\(volume.title): \(pages) pages") }
            #expect((volume.averageRating == nil) == (volume.ratingsCount == nil))
            if let rating = volume.averageRating {
                #expect((1...5).contains(rating) && (rating * 2).rounded() == rating * 2, "\(rating)")
                #expect((volume.ratingsCount ?? 0) >= 1)
            }
        }
    }

    @Test func theUnrealEngineBooksOfTheIssueAreDatedSensibly() {
        let volumes = BookCatalogue().volumes
        let ue5 = volumes.filter { $0.title.contains("Unreal Engine 5") }
        let ue4 = volumes.filter { $0.title.contains("Unreal Engine 4") }
        #expect(!ue5.isEmpty && !ue4.isEmpty)
        #expect(ue5.allSatisfy { (Self.yearValue(of: $0.publishedDate) ?? 2025) >= 2021 })
        #expect(ue4.allSatisfy { (Self.yearValue(of: $0.publishedDate) ?? 2025) >= 2014 })
    }

    // MARK: Movies

    @Test func everyMovieHasARealDateAndPopularityAndVotesInTMDBsRanges() throws {
        let movies =
            Array(MovieCatalogue(driftSeed: nil).movies.values) + Array(MovieCatalogue(driftSeed: 7).movies.values)
        #expect(movies.count > 200)
        for movie in movies {
            let name = "\(movie.title) [\(movie.id)]"
            if !movie.releaseDate.isEmpty {
                let year = try #require(Self.year(of: movie.releaseDate) ?? nil, "\(name): \(movie.releaseDate)")
                #expect((1900...2025).contains(year), "\(name): \(movie.releaseDate)")
                #expect(movie.releaseDate.count == 10, "\(name): TMDB sends full dates")
            }
            #expect(movie.popularity > 0 && movie.popularity <= 2_000, "\(name): popularity \(movie.popularity)")
            #expect((0...10).contains(movie.voteAverage), "\(name): vote \(movie.voteAverage)")
            #expect(movie.voteCount >= 0)
            if movie.voteCount == 0 { #expect(movie.voteAverage == 0, "\(name): an average of no votes") }
        }
    }

    // MARK: Photos

    /// Each place id of the offline stream, its name and where it is.
    static let places: [String: (name: String, latitude: Double, longitude: Double)] = [
        "7.MJR8tTVrIO1EgB": ("San Francisco", 37.77, -122.42), "rXYsMN5TUb4a1fCr": ("Oslo", 59.91, 10.75),
        "4Tk6b2JVUrtzrk4": ("Tokyo", 35.68, 139.65), "fZ0jLhZQU7qjhC8": ("Cape Town", -33.92, 18.42),
        "4qNuW3ZUVrIZbA": ("Buenos Aires", -34.60, -58.38), "zo8kVWBTUb5YbQ": ("Reykjavík", 64.15, -21.94),
        "8vXXR3NWUrJxmQ": ("Sydney", -33.87, 151.21), "Vp5Vh9dTUb5LlQ": ("Nairobi", -1.29, 36.82),
        "tI9yS7FVUb5tPQ": ("Mumbai", 19.08, 72.88), "j9r2UtZWUb4bZA": ("Anchorage", 61.22, -149.90),
        "GOFz6edVUrLoEg": ("Lima", -12.05, -77.04), "FmOEZR5UV7P7KfBdxg": ("Alameda", 37.77, -122.24),
    ]
    /// Words that need the sea nearby.
    static let seaWords = ["Harbour", "Beach", "Ferry", "Pacific", "Bay", "Fjord", "Penguins"]

    @Test func everyPhotoIsTakenAtItsPlaceAndUploadedBeforeTheStreamsTime() throws {
        let stream = PhotoStream()
        let flickrLaunch = 1_076_371_200  // 2004-02-10
        for tick in stride(from: 0, through: 400, by: 40) {
            let body = stream.recentResponse(tick: tick, page: 1, perPage: 500)
            let object = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
            let photos = try #require((object["photos"] as? [String: Any])?["photo"] as? [[String: Any]])
            let now = PhotoStream.time(ofTick: tick)
            for photo in photos {
                let title = photo["title"] as? String ?? ""
                let placeID = try #require(photo["place_id"] as? String)
                let place = try #require(Self.places[placeID], "unknown place \(placeID)")
                #expect(title.hasSuffix(", \(place.name)"), "\(title) is at \(place.name)")
                if place.name == "Nairobi" {
                    #expect(!Self.seaWords.contains(where: title.contains), "\(title): Nairobi is inland")
                }
                let uploaded = try #require(Int(photo["dateupload"] as? String ?? ""))
                #expect(
                    uploaded <= now && uploaded >= flickrLaunch, "\(title) uploaded at \(uploaded), stream at \(now)")
                if let latitude = Self.number(photo["latitude"]), let longitude = Self.number(photo["longitude"]),
                    latitude != 0 || longitude != 0
                {
                    #expect(abs(latitude - place.latitude) < 0.1 && abs(longitude - place.longitude) < 0.1, "\(title)")
                }
            }
        }
    }

    // MARK: Helpers

    /// The year of `yyyy`, `yyyy-MM` or `yyyy-MM-dd` when it is a real date; `.some(nil)` for no
    /// date; `nil` for a malformed one.
    static func year(of text: String?) -> Int?? {
        guard let text else { return .some(nil) }
        let parts = text.split(separator: "-").map { Int($0) }
        guard (1...3).contains(parts.count), parts.allSatisfy({ $0 != nil }), text.count == [4, 7, 10][parts.count - 1]
        else { return nil }
        let numbers = parts.compactMap { $0 }
        var components = DateComponents(year: numbers[0], month: numbers.count > 1 ? numbers[1] : 1)
        components.day = numbers.count > 2 ? numbers[2] : 1
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? .current
        guard components.isValidDate(in: calendar) else { return nil }
        return .some(numbers[0])
    }

    static func yearValue(of text: String?) -> Int? {
        year(of: text) ?? nil
    }

    static func number(_ value: Any?) -> Double? {
        switch value {
        case let text as String: Double(text)
        case let number as NSNumber: number.doubleValue
        default: nil
        }
    }
}
