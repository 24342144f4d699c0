import ExampleSupport
import Foundation
import Testing

/// The offline catalogues are plausible over their whole content: every film's values are in
/// TMDB's ranges, and every photo of the generated Flickr stream fits its place and time.
///
/// The rules are written here, in tables of their own, independently of the catalogues'
/// tables: a film released in 2031 or a harbour photographed in Nairobi fails these tests.
/// (The books' shape is checked by ``BookCatalogueShapeTests``, the films' scripts and series
/// by ``MovieCatalogueShapeTests``.)
@Suite struct CataloguePlausibilityTests {
    /// The latest year a book or movie can carry (the catalogues stop at 2025).
    static let latestYear = 2025

    // MARK: - TMDB

    /// TMDB's movie genre ids.
    static let tmdbGenres: Set<Int> = [
        28, 12, 16, 35, 80, 99, 18, 10751, 14, 36, 27, 10402, 9648, 10749, 878, 53, 10752, 37, 10770,
    ]

    /// Everything implausible about a movie detail object, one sentence each.
    static func problems(ofMovie movie: [String: Any]) -> [String] {
        var problems: [String] = []
        let date = movie["release_date"] as? String ?? ""
        if let parsed = CalendarDate(date), parsed.day != nil {
            if !(1900...latestYear).contains(parsed.year) { problems.append("released in \(parsed.year)") }
        } else {
            problems.append("release date \"\(date)\" is not a yyyy-MM-dd calendar date")
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
            ("release_date", "2031-01-01"), ("release_date", ""), ("popularity", 0.0), ("popularity", 99_999.0),
            ("vote_average", 11.0),
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
        #expect(catalogue.movies.count >= 500)
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
