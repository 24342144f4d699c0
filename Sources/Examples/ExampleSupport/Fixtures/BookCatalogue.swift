public import Foundation

/// The offline Google Books catalogue: 1,200 generated volumes shaped exactly like
/// `GET /books/v1/volumes` items (the shapes and quirks of the real responses recorded in
/// `Sources/TestSupport/Fixtures/googlebooks/`: partial dates, missing authors, images and
/// identifiers, ISBN-13 and ISBN-10 pairs, `OTHER` identifiers).
///
/// The content is generated, deterministically, from a fixed seed: titles are built from
/// topic families so that `Unreal Engine` matches more than 400 volumes, `Zeppelin` a few,
/// and nonsense nothing.
public struct BookCatalogue: Sendable {
    /// One volume as the JSON object the API returns.
    public struct Volume: Sendable {
        /// The volume id, such as `"pideEAAAQBAJ"`.
        public var id: String
        /// The title.
        public var title: String
        /// The subtitle, if any.
        public var subtitle: String?
        /// The authors; empty for volumes the API lists without authors.
        public var authors: [String]
        /// The publisher, if any.
        public var publisher: String?
        /// `"1862"`, `"2016-10"` or `"2016-10-14"`.
        public var publishedDate: String?
        /// The description, if any.
        public var description: String?
        /// The ISBN-13, if the volume has one.
        public var isbn13: String?
        /// Whether the volume has image links.
        public var hasImages: Bool
        /// An `OTHER` identifier used when the volume has no ISBN.
        public var otherIdentifier: String?
        /// The number of pages, if the API knows it.
        public var pageCount: Int?
        /// The mean of the readers' ratings (1 to 5, in halves), if anyone rated it.
        public var averageRating: Double?
        /// How many readers rated it, when ``averageRating`` is set.
        public var ratingsCount: Int?
        /// Lower-cased, diacritic-free title, subtitle and authors, for matching.
        let searchText: String

        /// The JSON object of this volume, as the API sends it.
        public var json: [String: Any] {
            var info: [String: Any] = ["title": title]
            if let subtitle { info["subtitle"] = subtitle }
            if !authors.isEmpty { info["authors"] = authors }
            if let publisher { info["publisher"] = publisher }
            if let publishedDate { info["publishedDate"] = publishedDate }
            if let description { info["description"] = description }
            if let pageCount { info["pageCount"] = pageCount }
            if let averageRating, let ratingsCount {
                info["averageRating"] = averageRating
                info["ratingsCount"] = ratingsCount
            }
            if let isbn13 {
                info["industryIdentifiers"] = [
                    ["type": "ISBN_13", "identifier": isbn13],
                    ["type": "ISBN_10", "identifier": BookCatalogue.isbn10(fromISBN13: isbn13)],
                ]
            } else if let otherIdentifier {
                info["industryIdentifiers"] = [["type": "OTHER", "identifier": otherIdentifier]]
            }
            if hasImages {
                let base = "http://books.google.com/books/content?id=\(id)&printsec=frontcover&img=1"
                info["imageLinks"] = [
                    "smallThumbnail": "\(base)&zoom=5&source=gbs_api", "thumbnail": "\(base)&zoom=1&source=gbs_api",
                ]
            }
            info["language"] = "en"
            info["printType"] = "BOOK"
            info["readingModes"] = ["text": false, "image": true]
            return [
                "kind": "books#volume", "id": id, "etag": String(id.reversed().prefix(11)),
                "selfLink": "https://www.googleapis.com/books/v1/volumes/\(id)", "volumeInfo": info,
                "saleInfo": ["country": "US", "saleability": "NOT_FOR_SALE", "isEbook": false],
            ]
        }
    }

    /// Every volume, in catalogue order (the order search results come in).
    public let volumes: [Volume]

    /// Builds the catalogue (deterministic: the same on every call).
    ///
    /// - Parameter count: how many volumes to generate; at least 1,000 by default.
    public init(count: Int = 1_200) {
        var generator = SeededGenerator(seed: 0x600D_B00C)
        var volumes: [Volume] = []
        volumes.reserveCapacity(count)
        var usedIDs = Set<String>()
        for index in 0..<count {
            volumes.append(Self.makeVolume(index: index, generator: &generator, usedIDs: &usedIDs))
        }
        self.volumes = volumes
    }

    /// The volumes whose title, subtitle or authors contain every word of `query`
    /// (case- and diacritic-insensitive). `isbn:NNN` matches by ISBN-13 or ISBN-10.
    ///
    /// - Parameter query: the `q` parameter of a search.
    /// - Returns: the matching volumes in catalogue order.
    public func matches(_ query: String) -> [Volume] {
        let trimmed = query.trimmingCharacters(in: .whitespaces)
        if trimmed.lowercased().hasPrefix("isbn:") {
            let isbn = trimmed.dropFirst(5).filter(\.isNumber)
            return volumes.filter { volume in
                guard let isbn13 = volume.isbn13 else { return false }
                return isbn13 == isbn || Self.isbn10(fromISBN13: isbn13) == isbn
            }
        }
        let words = queryWords(query)
        guard !words.isEmpty else { return [] }
        return volumes.filter { volume in words.allSatisfy { volume.searchText.contains($0) } }
    }

    /// The JSON body of `GET /books/v1/volumes?q=…&startIndex=…&maxResults=…`.
    ///
    /// Like the real API: `totalItems` counts every match, a page past the end or a query with
    /// no match has no `items` key at all, and `maxResults` is capped at 40.
    ///
    /// - Parameters:
    ///   - query: the `q` parameter.
    ///   - startIndex: the zero-based index of the first item.
    ///   - maxResults: the page size (1...40).
    /// - Returns: the response body.
    public func searchResponse(query: String, startIndex: Int, maxResults: Int) -> Data {
        let found = matches(query)
        let start = max(0, startIndex)
        let size = min(max(1, maxResults), 40)
        var body: [String: Any] = ["kind": "books#volumes", "totalItems": found.count]
        if start < found.count {
            body["items"] = found[start..<min(found.count, start + size)].map(\.json)
        }
        return (try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])) ?? Data()
    }

    /// The ISBN-10 that corresponds to a `978` ISBN-13.
    static func isbn10(fromISBN13 isbn13: String) -> String {
        let core = Array(isbn13.dropFirst(3).prefix(9)).compactMap { $0.wholeNumberValue }
        guard core.count == 9 else { return "" }
        let sum = core.enumerated().reduce(0) { $0 + $1.element * (10 - $1.offset) }
        let check = (11 - sum % 11) % 11
        return core.map(String.init).joined() + (check == 10 ? "X" : String(check))
    }

    // MARK: - Generation
    //
    // Every title belongs to a topic with the first year a book on it could have appeared
    // (the engine, language or event it is about), and is either a technical book, sold by a
    // technical publisher, or a trade book; a publisher is only chosen for a year it existed.

    /// What kind of book a title is, for its publisher and its length.
    enum Kind: Sendable {
        /// A programming or engineering book.
        case technical
        /// A novel, history, guide or cookbook.
        case trade
        /// An edition of *War and Peace*.
        case epic
    }

    /// The latest publication year in the catalogue.
    static let latestYear = 2025

    private static let unrealPrefixes = [
        "Learning", "Mastering", "Beginning", "Hands-On", "Practical", "Pro", "Exploring", "Getting Started with",
        "The Complete Guide to", "Game Development with", "Blueprints Visual Scripting for", "An Introduction to",
    ]
    /// Unreal Engine versions and the first year a book on each could appear (the Unreal
    /// Development Kit made books possible from 2009; Unreal Engine 4 came out in 2014, 5 in
    /// 2022 after its 2021 preview, 5.1 in November 2022, 5.3 in September 2023).
    private static let unrealVersions: [(version: String, since: Int)] = [
        ("", 2009), ("4", 2014), ("4.x", 2015), ("5", 2021), ("5.1", 2023), ("5.3", 2024),
    ]
    /// Subjects, with the first year they make sense (Blueprints and VR projects came with UE4).
    private static let unrealSubjects: [(subject: String, since: Int)] = [
        ("Game Development", 2009), ("Blueprints", 2014), ("C++ Programming", 2009),
        ("Virtual Reality Projects", 2016), ("Level Design", 2009), ("Lighting and Rendering", 2009),
        ("Multiplayer Games", 2009), ("Character Animation", 2009), ("Cookbook", 2009),
        ("Shaders and Effects", 2009), ("Game AI", 2009), ("Essentials", 2009), ("for Architects", 2016),
        ("Projects", 2009), ("Scripting", 2009), ("Open Worlds", 2014),
    ]
    /// The other topics: each ending with the first year a book of that title could appear.
    private static let otherTopics: [(topic: String, kind: Kind, endings: [(String, Int)])] = [
        (
            "Unity", .technical,
            [
                ("Game Development", 2009), ("Cookbook", 2011), ("in Action", 2011), ("Shaders", 2016),
                ("for Beginners", 2012), ("2D Games", 2014),
            ]
        ),
        ("Godot", .technical, [("Game Engine Projects", 2018), ("4 Essentials", 2023), ("by Example", 2019)]),
        (
            "Swift", .technical,
            [
                ("Programming", 2014), ("Concurrency", 2021), ("on the Server", 2016),
                ("Apprentice", 2015), ("Design Patterns", 2015),
            ]
        ),
        (
            "Python", .technical,
            [
                ("Crash Course", 2015), ("for Data Analysis", 2012), ("Cookbook", 2002),
                ("Tricks", 2017), ("Testing", 2010),
            ]
        ),
        ("SQLite", .technical, [("The Definitive Guide", 2006), ("for Mobile Apps", 2011), ("Internals", 2012)]),
        (
            "Game Design", .technical,
            [("Workshop", 2004), ("Fundamentals", 2006), ("Patterns", 2010), ("Secrets", 2012)]
        ),
        ("Rust", .technical, [("in Action", 2021), ("Programming", 2018), ("Atomics and Locks", 2023)]),
        ("Dawn", .trade, [("of the Planet", 1968), ("Chorus", 1995), ("Treader", 1952), ("A Novel", 1950)]),
        ("War and Peace", .epic, [("Volume I", 1869), ("Volume II", 1869), ("A Reader's Guide", 1960)]),
        (
            "The Art of", .trade,
            [
                ("Debugging", 1990), ("Level Design", 2005), ("Bread Baking", 1950),
                ("War", 1910), ("Soldering", 1975),
            ]
        ),
        (
            "History of", .trade,
            [
                ("Rome", 1880), ("the Railways", 1920), ("Typography", 1930), ("Mathematics", 1900),
                ("Clocks", 1950),
            ]
        ),
        ("Zeppelin:", .trade, [("Airships of the Great War", 1919), ("The Golden Age", 1937)]),
        ("Physics", .technical, [("for Game Developers", 2001), ("of Light", 1950), ("Made Simple", 1962)]),
        ("Cooking", .trade, [("at Home", 1950), ("with Fire", 1985), ("for One", 1970)]),
    ]
    /// Endings that make a technical book of any topic.
    private static let technicalEndings: Set<String> = ["Debugging", "Level Design", "Soldering"]
    /// Books whose author is fixed: a classic's editions keep their author.
    private static let classicAuthors = ["War and Peace Volume": "Leo Tolstoy", "The Art of War": "Sun Tzu"]
    private static let firstNames = [
        "Andrew", "Maria", "Kenji", "Olga", "Tom", "Priya", "Lucas", "Amélie", "Sven", "Chiara", "David", "Fatima",
        "Marek", "Yuki", "Elena", "Samuel", "Ingrid", "Omar", "Zoë", "Ravi",
    ]
    private static let lastNames = [
        "Sanders", "Okafor", "Tanaka", "Ivanova", "Shannon", "Raman", "Moreau", "Lindqvist", "Rossi", "Nguyen",
        "Kowalski", "Haddad", "Dubois", "Schmidt", "García", "O'Brien", "Müller", "Petrov", "Chen", "Walsh",
    ]
    /// Publishers of technical books, with the year each was founded.
    static let technicalPublishers: [(name: String, founded: Int)] = [
        ("CRC Press", 1973), ("Packt Publishing Ltd", 2004), ("Apress", 1999), ("No Starch Press", 1994),
        ("O'Reilly Media, Inc.", 1978), ("Manning", 1990), ("Addison-Wesley Professional", 1942),
        ("Pragmatic Bookshelf", 2003), ("Springer", 1842),
    ]
    /// Publishers of trade books and classics, with the year each was founded.
    static let tradePublishers: [(name: String, founded: Int)] = [
        ("Penguin UK", 1935), ("Vintage", 1954), ("Oxford University Press", 1586), ("Faber & Faber", 1929),
        ("Harper & Brothers", 1817), ("Macmillan", 1843), ("Random House", 1927), ("HarperCollins", 1989),
    ]
    private static let idAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")

    private static func makeVolume(
        index: Int, generator g: inout SeededGenerator, usedIDs: inout Set<String>
    )
        -> Volume
    {
        // 40% of the catalogue is about Unreal Engine, so that query fills 10 pages of 40.
        let title: String
        var subtitle: String?
        let kind: Kind
        let since: Int
        if index % 5 < 2 {
            let (version, versionSince) = g.pick(unrealVersions)
            let (subject, subjectSince) = g.pick(unrealSubjects)
            let engine = version.isEmpty ? "Unreal Engine" : "Unreal Engine \(version)"
            let prefix = g.pick(unrealPrefixes)
            title = "\(prefix) \(engine) \(subject)"
            if g.chance(0.3) { subtitle = "Build \(g.pick(["games", "worlds", "tools", "experiences"])) step by step" }
            kind = .technical
            // Blueprints, the visual scripting, came with Unreal Engine 4.
            since = max(versionSince, subjectSince, prefix.hasPrefix("Blueprints") ? 2014 : 0)
        } else {
            let (topic, topicKind, endings) = otherTopics[index % otherTopics.count]
            let (ending, endingSince) = g.pick(endings)
            title = "\(topic) \(ending)"
            // "The Art of Computer Programming" is a technical book in a trade family.
            kind = technicalEndings.contains(ending) ? .technical : topicKind
            since = endingSince
            if kind == .technical, g.chance(0.2) { subtitle = "Edition \(Int.random(in: 2...5, using: &g))" }
        }
        var id: String
        repeat {
            id = String((0..<12).map { _ in g.pick(idAlphabet) })
        } while !usedIDs.insert(id).inserted
        let authorCount = g.chance(0.08) ? 0 : Int.random(in: 1...3, using: &g)
        var authors: [String] = []
        if let classic = classicAuthors.first(where: { title.hasPrefix($0.key) })?.value { authors = [classic] }
        while authors.count < authorCount, authors.count < 3, !authors.contains(where: classicAuthors.values.contains) {
            let name = "\(g.pick(firstNames)) \(g.pick(lastNames))"
            if !authors.contains(name) { authors.append(name) }
        }
        let year = Int.random(in: since...latestYear, using: &g)
        let date: String? =
            switch Int.random(in: 0..<10, using: &g) {
            case 0: nil
            case 1...3: "\(year)"
            case 4...5: String(format: "%04d-%02d", year, Int.random(in: 1...12, using: &g))
            default:
                String(
                    format: "%04d-%02d-%02d", year, Int.random(in: 1...12, using: &g), Int.random(in: 1...28, using: &g)
                )
            }
        var isbn13: String?
        var other: String?
        // ISBNs exist from 1970; older editions carry a publisher's own identifier, if any.
        switch Int.random(in: 0..<20, using: &g) {
        case 0, 1: break
        case 2: other = "PKEY:\(id)"
        default: if year >= 1970 { isbn13 = makeISBN13(&g) } else { other = "PKEY:\(id)" }
        }
        let description: String? = g.chance(0.85) ? Self.description(of: title, kind: kind) : nil
        let publishers = (kind == .technical ? technicalPublishers : tradePublishers).filter { $0.founded <= year }
        let publisher = g.chance(0.8) && !publishers.isEmpty ? g.pick(publishers).name : nil
        let pages: ClosedRange<Int> =
            switch kind {
            case .technical: 180...820
            case .trade: 160...560
            case .epic: title.hasSuffix("Guide") ? 96...240 : 640...1_296
            }
        let pageCount: Int? = g.chance(0.9) ? Int.random(in: pages, using: &g) : nil
        let rated = g.chance(0.35)
        let searchText = folded(([title, subtitle ?? ""] + authors).joined(separator: " "))
        return Volume(
            id: id, title: title, subtitle: subtitle, authors: authors, publisher: publisher, publishedDate: date,
            description: description, isbn13: isbn13, hasImages: g.chance(0.88), otherIdentifier: other,
            pageCount: pageCount, averageRating: rated ? Double(Int.random(in: 2...10, using: &g)) / 2 : nil,
            ratingsCount: rated ? Int.random(in: 1...240, using: &g) : nil, searchText: searchText)
    }

    /// A blurb that fits the book: a manual's promise, a history's scope, a novel's premise.
    private static func description(of title: String, kind: Kind) -> String {
        if kind == .technical {
            return "\(title) takes the reader from first principles to finished work, with exercises in every chapter."
        }
        if title.hasPrefix("War and Peace Volume") {
            return "Tolstoy's novel of five families through Napoleon's invasion of Russia, in a new translation."
        }
        if title.hasPrefix("War and Peace") { return "A companion to Tolstoy's novel, chapter by chapter." }
        if title.hasPrefix("Dawn") { return "A novel of one long night and of what the morning brings." }
        if title.hasPrefix("History of") {
            return "A history of \(title.dropFirst("History of ".count)), from its beginnings to the present day."
        }
        if title.hasPrefix("Zeppelin") {
            return "The great airships, told through photographs and the accounts of their crews."
        }
        if title == "The Art of War" { return "The classic treatise on strategy, in a new translation." }
        return "Recipes for every day and every season, with the techniques behind them."
    }

    private static func makeISBN13(_ g: inout SeededGenerator) -> String {
        var digits = [9, 7, 8] + (0..<9).map { _ in Int.random(in: 0...9, using: &g) }
        let sum = digits.enumerated().reduce(0) { $0 + $1.element * ($1.offset % 2 == 0 ? 1 : 3) }
        digits.append((10 - sum % 10) % 10)
        return digits.map(String.init).joined()
    }
}
