public import Foundation
import SeededRandom

/// The offline Google Books catalogue: 1,200 generated volumes shaped exactly like
/// `GET /books/v1/volumes` items (the shapes and quirks of the real responses recorded in
/// `Sources/TestSupport/Fixtures/googlebooks/`: partial dates, missing authors, images and
/// identifiers, ISBN-13 and ISBN-10 pairs, `OTHER` identifiers).
///
/// The content is generated, deterministically, from a fixed seed: titles are built from
/// topic families so that `Unreal Engine` matches more than 400 volumes, `Zeppelin` a few
/// dozen, and nonsense nothing. The generated data is plausible: every title is dated no
/// earlier than its subject existed (Unreal Engine books from 1998, Unreal Engine 5 books from
/// 2021, War and Peace editions from the first English translation) and no later than 2025;
/// publishers fit the kind of book and existed at its date; ISBNs appear from 1970 on; page
/// counts and ratings stay in the ranges real volumes have.
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
        /// An `OTHER` identifier used when the volume has no ISBN, such as `"PKEY:…"` or a
        /// library's `"UOM:39015…"` for an old book.
        public var otherIdentifier: String?
        /// The number of pages, when Google Books knows it.
        public var pageCount: Int?
        /// The mean reader rating, 1 to 5 in steps of 0.5, for the volumes that have ratings.
        public var averageRating: Double?
        /// How many readers rated the volume: at least 1 when ``averageRating`` is set.
        public var ratingsCount: Int?
        /// The Google Books categories, such as `["Computers"]`; empty when the API sends none.
        public var categories: [String]
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
            if let pageCount { info["pageCount"] = pageCount }
            if !categories.isEmpty { info["categories"] = categories }
            if let averageRating, let ratingsCount {
                // Like the API: a whole average is sent as an integer (`4`), a half as `4.5`.
                info["averageRating"] =
                    averageRating.rounded() == averageRating ? Int(averageRating) as Any : averageRating as Any
                info["ratingsCount"] = ratingsCount
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
        var used = UsedIdentifiers()
        for index in 0..<count {
            volumes.append(Self.makeVolume(index: index, generator: &generator, used: &used))
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
        let words = searchWords(query)
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

    /// The ids and ISBNs handed out so far, so that no two volumes share one.
    private struct UsedIdentifiers {
        /// The volume ids in use.
        var ids = Set<String>()
        /// The ISBN-13s in use.
        var isbns = Set<String>()
    }

    /// What kind of book a title is: it decides the authors, description and rating odds.
    private enum Kind {
        /// Programming, game engines, game design.
        case technical
        /// Novels.
        case fiction
        /// A classic in translation (War and Peace, The Art of War).
        case classic
        /// History and other general non-fiction.
        case history
        /// Cookery.
        case cooking
        /// Physics, electronics.
        case science
    }

    /// A publisher and the years it published under that name.
    private struct Publisher {
        /// The name as Google Books shows it.
        let name: String
        /// The year the publisher was founded (or took this name).
        let founded: Int
        /// The last year it published under this name.
        var until = Int.max

        /// Whether the publisher existed, under this name, in `year`.
        func exists(in year: Int) -> Bool { (founded...until).contains(year) }
    }

    /// Who wrote a title.
    private enum Authors {
        /// One to three generated names (none for a few volumes, as the API sometimes sends).
        case generated
        /// A fixed author, followed, when the date allows, by one of the translations:
        /// the translators' names and the year their translation first appeared.
        case fixed(String, translations: [(names: [String], since: Int)])
    }

    /// One title the catalogue may print, with what makes it plausible.
    private struct Plan {
        /// The title.
        var title: String
        /// A subtitle every volume of this plan has, if any.
        var subtitle: String?
        /// The earliest year a volume of this title can be dated.
        var since: Int
        /// The earliest month of `since` (a book on a release that came in November is dated
        /// from the next month on).
        var sinceMonth = 1
        /// The latest year a volume of this title is dated.
        var until = 2025
        /// The kind of book.
        var kind: Kind
        /// The page counts of its volumes.
        var pages: ClosedRange<Int>
        /// The Google Books category.
        var category: String
        /// The publishers that would print it (the ones that existed at the date are used).
        var publishers: [Publisher]
        /// Who wrote it.
        var authors = Authors.generated
    }

    /// The publishers the catalogue names: the year each was founded (or took the name it is
    /// listed under).
    private static let foundingYears: [String: Int] = [
        "Packt Publishing Ltd": 2004, "Apress": 1999, "No Starch Press": 1994, "O'Reilly & Associates": 1978,
        "O'Reilly Media, Inc.": 2004, "Manning Publications": 1990, "Addison-Wesley Professional": 1942,
        "CRC Press": 1973, "Pragmatic Bookshelf": 2003, "John Wiley & Sons": 1807, "Springer": 1842,
        "Springer Nature": 2015, "Focal Press": 1938, "Wordware Publishing": 1983, "New Riders": 1988,
        "Sams Publishing": 1946, "Morgan Kaufmann": 1984, "MIT Press": 1962, "Penguin Books": 1935, "Vintage": 1954,
        "Random House": 1927, "HarperCollins": 1989, "Harper & Brothers": 1833, "Macmillan": 1843,
        "Chatto & Windus": 1873, "Victor Gollancz": 1927, "Tor Books": 1980, "Faber & Faber": 1929,
        "Bloomsbury Publishing": 1986, "Alfred A. Knopf": 1915, "Houghton Mifflin": 1880, "Penguin Classics": 1946,
        "Oxford University Press": 1586, "Everyman's Library": 1906, "Modern Library": 1917, "Dover Publications": 1941,
        "Thomas Y. Crowell & Co.": 1876, "William Heinemann": 1890, "Wordsworth Editions": 1987, "Luzac & Co.": 1740,
        "Shambhala": 1969, "Cambridge University Press": 1534, "Routledge": 1836, "Longmans, Green & Co.": 1865,
        "Yale University Press": 1908, "Thames & Hudson": 1949, "T. Fisher Unwin": 1882, "The History Press": 2005,
        "Ian Allan Publishing": 1942, "Amberley Publishing": 2008, "Osprey Publishing": 1968, "Pen and Sword": 1990,
        "Hodder & Stoughton": 1868, "G. P. Putnam's Sons": 1838, "Fonthill Media": 2011, "Ten Speed Press": 1971,
        "Chronicle Books": 1967, "Ebury Press": 1961, "McGraw-Hill": 1917, "Prentice Hall": 1913,
    ]
    /// The last year the publishers that closed, or took another name, published under the
    /// name they are listed under.
    private static let lastYears: [String: Int] = [
        "O'Reilly & Associates": 2003, "Springer": 2014, "Wordware Publishing": 2010, "Harper & Brothers": 1962,
        "Thomas Y. Crowell & Co.": 1979, "Luzac & Co.": 1965, "Longmans, Green & Co.": 1968, "T. Fisher Unwin": 1926,
    ]

    /// The publishers with these names, in this order (a name given twice is drawn twice as often).
    private static func press(_ names: String...) -> [Publisher] {
        names.compactMap { name in
            foundingYears[name].map { Publisher(name: name, founded: $0, until: lastYears[name] ?? .max) }
        }
    }

    /// Publishers of programming books.
    private static let computingPress = press(
        "Packt Publishing Ltd", "Apress", "No Starch Press", "O'Reilly & Associates", "O'Reilly Media, Inc.",
        "Manning Publications", "Addison-Wesley Professional", "CRC Press", "Pragmatic Bookshelf", "John Wiley & Sons",
        "Springer", "Springer Nature"
    )
    /// Publishers of game-engine books (Packt above all).
    private static let gameEnginePress = press(
        "Packt Publishing Ltd", "Packt Publishing Ltd", "Packt Publishing Ltd", "Apress", "CRC Press", "Focal Press",
        "No Starch Press", "Manning Publications", "O'Reilly & Associates", "O'Reilly Media, Inc.",
        "Wordware Publishing", "New Riders", "Sams Publishing", "John Wiley & Sons"
    )
    /// Publishers of game-design books.
    private static let gameDesignPress = press(
        "New Riders", "Morgan Kaufmann", "CRC Press", "MIT Press", "John Wiley & Sons", "Focal Press",
        "Addison-Wesley Professional", "O'Reilly Media, Inc.", "No Starch Press"
    )
    /// Publishers of novels.
    private static let fictionPress = press(
        "Penguin Books", "Vintage", "Random House", "HarperCollins", "Harper & Brothers", "Macmillan",
        "Chatto & Windus", "Victor Gollancz", "Tor Books", "Faber & Faber", "Bloomsbury Publishing", "Alfred A. Knopf",
        "Houghton Mifflin"
    )
    /// Publishers of classics in translation.
    private static let classicsPress = press(
        "Penguin Classics", "Oxford University Press", "Vintage", "Everyman's Library", "Modern Library",
        "Dover Publications", "Thomas Y. Crowell & Co.", "William Heinemann", "Harper & Brothers", "Macmillan",
        "Wordsworth Editions", "Alfred A. Knopf"
    )
    /// Publishers of The Art of War.
    private static let strategyPress = press(
        "Luzac & Co.", "Oxford University Press", "Penguin Classics", "Shambhala", "Dover Publications"
    )
    /// Publishers of history and criticism.
    private static let historyPress = press(
        "Oxford University Press", "Cambridge University Press", "Routledge", "Longmans, Green & Co.",
        "Yale University Press", "Penguin Books", "Vintage", "Thames & Hudson", "Macmillan", "T. Fisher Unwin",
        "Houghton Mifflin", "The History Press"
    )
    /// Publishers of railway history.
    private static let railwayPress = historyPress + press("Ian Allan Publishing", "Amberley Publishing")
    /// Publishers of aviation and military history.
    private static let aviationPress = press(
        "Osprey Publishing", "Pen and Sword", "The History Press", "Amberley Publishing", "Hodder & Stoughton",
        "G. P. Putnam's Sons", "Longmans, Green & Co.", "Routledge", "Fonthill Media"
    )
    /// Publishers of cookery books.
    private static let cookingPress = press(
        "Penguin Books", "Alfred A. Knopf", "Ten Speed Press", "Chronicle Books", "Macmillan", "HarperCollins",
        "Houghton Mifflin", "Bloomsbury Publishing", "Hodder & Stoughton", "Ebury Press"
    )
    /// Publishers of science and engineering books.
    private static let sciencePress = press(
        "Springer", "Springer Nature", "CRC Press", "Dover Publications", "Oxford University Press",
        "Cambridge University Press", "John Wiley & Sons", "McGraw-Hill", "Prentice Hall"
    )

    /// The month of the first year from which books on a release are dated, for the
    /// programming titles whose release came later than January.
    private static let releaseMonths = [
        "Godot 4 Essentials": 4, "Swift Programming": 7, "Swift Concurrency in Practice": 10, "Python Crash Course": 11,
        "Rust for Rustaceans": 12,
    ]

    /// Plans for programming books, one a row: the title and the first year it can be dated
    /// (from the month in ``releaseMonths``, when it has one).
    private static func computing(
        _ rows: KeyValuePairs<String, Int>, publishers: [Publisher] = computingPress
    ) -> [Plan] {
        rows.map { row in
            Plan(
                title: row.key, since: row.value, sinceMonth: releaseMonths[row.key] ?? 1, kind: .technical,
                pages: 180...720, category: "Computers", publishers: publishers)
        }
    }

    /// A plan for a history book.
    private static func history(
        _ title: String, since: Int, pages: ClosedRange<Int> = 180...640, publishers: [Publisher] = historyPress
    ) -> Plan {
        Plan(title: title, since: since, kind: .history, pages: pages, category: "History", publishers: publishers)
    }

    /// A plan for a novel.
    private static func fiction(_ title: String, subtitle: String? = nil, since: Int, pages: ClosedRange<Int>) -> Plan {
        Plan(
            title: title, subtitle: subtitle, since: since, kind: .fiction, pages: pages, category: "Fiction",
            publishers: fictionPress)
    }

    /// A plan for a cookery book.
    private static func cooking(_ title: String, since: Int, pages: ClosedRange<Int>) -> Plan {
        Plan(title: title, since: since, kind: .cooking, pages: pages, category: "Cooking", publishers: cookingPress)
    }

    /// A plan for a science or engineering book.
    private static func science(
        _ title: String, since: Int, pages: ClosedRange<Int>, category: String = "Science",
        publishers: [Publisher] = sciencePress
    ) -> Plan {
        Plan(title: title, since: since, kind: .science, pages: pages, category: category, publishers: publishers)
    }

    /// A plan for an edition of Tolstoy's War and Peace (whole, or one volume), in the English
    /// translation of its date.
    private static func warAndPeace(volume: String? = nil, pages: ClosedRange<Int>) -> Plan {
        Plan(
            title: "War and Peace", subtitle: volume, since: 1886, kind: .classic, pages: pages, category: "Fiction",
            publishers: classicsPress, authors: .fixed("Leo Tolstoy", translations: warAndPeaceTranslations))
    }

    /// A plan for a volume of Donald E. Knuth's The Art of Computer Programming.
    private static func knuth(_ volume: String, since: Int, pages: ClosedRange<Int>) -> Plan {
        Plan(
            title: "The Art of Computer Programming", subtitle: volume, since: since, kind: .technical, pages: pages,
            category: "Computers", publishers: press("Addison-Wesley Professional"),
            authors: .fixed("Donald E. Knuth", translations: []))
    }

    /// The translations of War and Peace into English: translators and first year.
    private static let warAndPeaceTranslations: [(names: [String], since: Int)] = [
        (["Clara Bell"], 1886), (["Nathan Haskell Dole"], 1889), (["Constance Garnett"], 1904),
        (["Louise Maude", "Aylmer Maude"], 1922), (["Rosemary Edmonds"], 1957), (["Ann Dunnigan"], 1968),
        (["Anthony Briggs"], 2005), (["Richard Pevear", "Larissa Volokhonsky"], 2007),
    ]

    /// The translations of The Art of War into English: translators and first year.
    private static let artOfWarTranslations: [(names: [String], since: Int)] = [
        (["Lionel Giles"], 1910), (["Samuel B. Griffith"], 1963), (["Thomas Cleary"], 1988), (["John Minford"], 2002),
    ]

    /// The titles outside Unreal Engine, in 14 families; volume `index` draws from family
    /// `index % 14` (family 11, Zeppelin, so gets 51 volumes: two pages, the second short).
    private static let families: [[Plan]] = [
        computing(
            [
                "Unity Game Development Essentials": 2009, "Unity Cookbook": 2013, "Unity in Action": 2015,
                "Unity Shaders and Effects Cookbook": 2013, "Unity for Beginners": 2010,
                "Unity 2D Game Development": 2014,
            ], publishers: gameEnginePress),
        computing(
            [
                "Godot Engine Game Development Projects": 2018, "Godot 4 Essentials": 2023, "Godot by Example": 2017,
                "Game Development with Godot": 2018,
            ], publishers: gameEnginePress),
        computing([
            "Swift Programming": 2014, "Swift Concurrency in Practice": 2021, "Swift on the Server": 2016,
            "Swift Apprentice": 2015, "Swift Design Patterns": 2015,
        ]),
        computing([
            "Python Crash Course": 2015, "Python for Data Analysis": 2012, "Python Cookbook": 2002,
            "Python Tricks": 2017, "Python Testing": 2009, "Learning Python": 1999, "Programming Python": 1996,
        ]),
        computing([
            "The Definitive Guide to SQLite": 2006, "SQLite for Mobile Apps": 2009, "Using SQLite": 2010,
            "SQLite Internals": 2012,
        ]),
        computing(
            [
                "Game Design Workshop": 2004, "Fundamentals of Game Design": 2006, "Patterns in Game Design": 2004,
                "Game Design Secrets": 2012, "The Art of Game Design": 2008, "The Art of Computer Game Design": 1984,
            ], publishers: gameDesignPress),
        computing([
            "Rust in Action": 2021, "Programming Rust": 2017, "Rust Atomics and Locks": 2023,
            "The Rust Programming Language": 2018, "Rust for Rustaceans": 2021,
        ]),
        [
            fiction("Dawn", subtitle: "A Novel", since: 1950, pages: 220...520),
            fiction("Dawn Chorus", since: 1950, pages: 180...420),
            fiction("Before the Dawn", since: 1900, pages: 200...480),
            fiction("False Dawn", since: 1920, pages: 200...460),
            fiction("Dawn at Sea", since: 1930, pages: 220...520),
            fiction("Red Sky at Dawn", since: 1960, pages: 240...560),
        ],
        [
            warAndPeace(pages: 1_100...1_400), warAndPeace(volume: "Volume I", pages: 520...760),
            warAndPeace(volume: "Volume II", pages: 520...760),
            Plan(
                title: "War and Peace", subtitle: "A Reader's Guide", since: 1950, kind: .history, pages: 200...320,
                category: "Literary Criticism", publishers: historyPress),
        ],
        [
            knuth("Volume 1: Fundamental Algorithms", since: 1968, pages: 620...680),
            knuth("Volume 2: Seminumerical Algorithms", since: 1969, pages: 620...770),
            knuth("Volume 3: Sorting and Searching", since: 1973, pages: 720...800),
            cooking("The Art of French Cooking", since: 1961, pages: 300...720),
            Plan(
                title: "The Art of War", since: 1910, kind: .classic, pages: 60...280, category: "History",
                publishers: strategyPress, authors: .fixed("Sun Tzu", translations: artOfWarTranslations)),
            science(
                "The Art of Electronics", since: 1980, pages: 700...1_220, category: "Technology & Engineering",
                publishers: press("Cambridge University Press")),
        ],
        [
            history("A History of Rome", since: 1880),
            history("A History of the Railways", since: 1880, publishers: railwayPress),
            history("A History of Typography", since: 1900), history("A History of Mathematics", since: 1890),
            history("A History of Clocks and Watches", since: 1900),
        ],
        [
            history("Zeppelin: Airships of the Great War", since: 1919, pages: 160...480, publishers: aviationPress),
            history("Zeppelin: The Golden Age of Airships", since: 1938, pages: 160...480, publishers: aviationPress),
            history("Zeppelins over England", since: 1920, pages: 160...480, publishers: aviationPress),
            history("The Zeppelin in Combat", since: 1962, pages: 160...480, publishers: aviationPress),
        ],
        computing(["Physics for Game Developers": 2001]) + [
            science("The Physics of Light", since: 1930, pages: 220...560),
            science("Physics Made Simple", since: 1960, pages: 160...400),
        ],
        [
            cooking("Cooking at Home", since: 1950, pages: 160...420),
            cooking("Cooking with Fire", since: 1995, pages: 180...360),
            cooking("Cooking for One", since: 1960, pages: 120...300),
            cooking("Everyday Cooking", since: 1950, pages: 160...480),
        ],
    ]

    /// An Unreal Engine version as titles name it, the month of its release (books come
    /// after), and the last year books on it are dated.
    private static let unrealVersions: [(name: String, since: Int, month: Int, until: Int)] = [
        ("", 1998, 6, 2025), ("4", 2014, 4, 2023), ("4.x", 2015, 1, 2021), ("5", 2021, 6, 2025),
        ("5.1", 2023, 1, 2025), ("5.3", 2023, 11, 2025),
    ]
    /// Subjects of Unreal Engine books, with the first year each makes sense (Blueprints and
    /// C++ gameplay code came with Unreal Engine 4 in 2014; VR headsets shipped from 2015).
    private static let unrealSubjects: [(name: String, since: Int)] = [
        ("Game Development", 1998), ("Blueprints", 2014), ("C++ Programming", 2014),
        ("Virtual Reality Projects", 2015), ("Level Design", 1998), ("Lighting and Rendering", 1998),
        ("Multiplayer Games", 1998), ("Character Animation", 1998), ("Cookbook", 1998), ("Shaders and Effects", 1998),
        ("Game AI", 1998), ("Essentials", 1998), ("for Architects", 2015), ("Projects", 1998), ("Scripting", 1998),
        ("Open Worlds", 2014), ("Game Development Essentials", 1998),
    ]
    /// Words that go before an Unreal Engine title.
    private static let unrealPrefixes = [
        "Learning", "Mastering", "Beginning", "Hands-On", "Practical", "Exploring", "Getting Started with",
        "An Introduction to",
    ]
    /// Titles that end with the engine, with the first year each makes sense.
    private static let unrealLeads: [(name: String, since: Int)] = [
        ("Game Development with", 1998), ("Blueprints Visual Scripting for", 2014),
        ("Multiplayer Game Programming in", 1998), ("Building Open Worlds in", 2014),
        ("Virtual Reality Projects with", 2015), ("Level Design in", 1998), ("Architectural Visualization in", 2015),
        ("Game AI Programming with", 1998),
    ]
    /// Subtitles of Unreal Engine books.
    private static let unrealSubtitles = [
        "Build games step by step", "A practical guide to building real-time worlds",
        "From first prototype to finished game", "Create interactive 3D experiences",
    ]

    /// A plan for an Unreal Engine book: a version, a title built around it that reads well,
    /// dated from the latest of the version's release and the subject's first year.
    private static func unrealPlan(_ g: inout SeededGenerator) -> Plan {
        let version = g.pick(unrealVersions)
        let engine = version.name.isEmpty ? "Unreal Engine" : "Unreal Engine \(version.name)"
        let title: String
        let subjectSince: Int
        switch Int.random(in: 0..<4, using: &g) {
        case 0:
            title = "\(g.pick(unrealPrefixes)) \(engine)"
            subjectSince = 1998
        case 1:
            let subject = g.pick(unrealSubjects)
            title = "\(engine) \(subject.name)"
            subjectSince = subject.since
        case 2:
            let subject = g.pick(unrealSubjects.filter { !["Essentials", "Projects", "Cookbook"].contains($0.name) })
            title = "\(g.pick(["Learning", "Mastering", "Hands-On", "Practical"])) \(engine) \(subject.name)"
            subjectSince = subject.since
        default:
            let lead = g.pick(unrealLeads)
            title = "\(lead.name) \(engine)"
            subjectSince = lead.since
        }
        let since = max(version.since, subjectSince)
        return Plan(
            title: title, since: since, sinceMonth: since == version.since ? version.month : 1, until: version.until,
            kind: .technical, pages: 180...780, category: "Computers", publishers: gameEnginePress)
    }

    /// First names of authors of books from 1960 on.
    private static let firstNames = [
        "Andrew", "Maria", "Kenji", "Olga", "Tom", "Priya", "Lucas", "Amélie", "Sven", "Chiara", "David", "Fatima",
        "Marek", "Yuki", "Elena", "Samuel", "Ingrid", "Omar", "Zoë", "Ravi", "Rachel", "Daniel", "Hannah", "Joseph",
    ]
    /// Last names of authors of books from 1960 on.
    private static let lastNames = [
        "Sanders", "Okafor", "Tanaka", "Ivanova", "Shannon", "Raman", "Moreau", "Lindqvist", "Rossi", "Nguyen",
        "Kowalski", "Haddad", "Dubois", "Schmidt", "García", "O'Brien", "Müller", "Petrov", "Chen", "Walsh",
        "Fletcher", "Brennan", "Hughes", "Novak",
    ]
    /// First names of authors of older books.
    private static let olderFirstNames = [
        "Charles", "Henry", "Edith", "Arthur", "Margaret", "William", "Frederick", "Alice", "George", "Florence",
        "Walter", "Beatrice",
    ]
    /// Last names of authors of older books.
    private static let olderLastNames = [
        "Whitmore", "Hartley", "Pemberton", "Ashcroft", "Fairfax", "Lowell", "Carrington", "Baxter", "Thornton",
        "Ellis", "Marsh", "Holloway",
    ]
    /// The prefixes of the `OTHER` identifiers Google Books gives scans of library copies.
    private static let libraryPrefixes = ["HARVARD:32044", "UOM:39015", "STANFORD:36105", "NYPL:33433"]
    /// The characters of a volume id.
    private static let idAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")

    /// Generates volume `index`.
    private static func makeVolume(
        index: Int, generator g: inout SeededGenerator, used: inout UsedIdentifiers
    )
        -> Volume
    {
        // 40% of the catalogue is about Unreal Engine, so that query fills 10 pages of 40.
        let plan = index % 5 < 2 ? unrealPlan(&g) : g.pick(families[index % families.count])
        let year = publicationYear(plan, &g)
        let month = Int.random(in: (year == plan.since ? plan.sinceMonth : 1)...12, using: &g)
        let day = Int.random(in: 1...daysIn(month: month, year: year), using: &g)
        let date: String? =
            switch Int.random(in: 0..<10, using: &g) {
            case 0: nil
            case 1...3: "\(year)"
            case 4...5 where year < 1950: "\(year)"  // old books mostly carry a year only
            case 4...5: String(format: "%04d-%02d", year, month)
            case 6...8 where year < 1950: "\(year)"
            default: String(format: "%04d-%02d-%02d", year, month, day)
            }
        var subtitle = plan.subtitle
        if subtitle == nil, plan.title.contains("Unreal Engine"), g.chance(0.3) {
            subtitle = g.pick(unrealSubtitles)
        } else if subtitle == nil, plan.kind == .technical, year - plan.since >= 3, g.chance(0.25) {
            subtitle = year - plan.since >= 6 && g.chance(0.4) ? "Third Edition" : "Second Edition"
        }
        var id: String
        repeat {
            id = String((0..<12).map { _ in g.pick(idAlphabet) })
        } while !used.ids.insert(id).inserted
        let authors = makeAuthors(plan, year: year, &g)
        var isbn13: String?
        var other: String?
        if year >= 1970 {  // ISBNs came in 1970; older books have none, or a library's id
            switch Int.random(in: 0..<20, using: &g) {
            case 0, 1: break
            case 2: other = "PKEY:\(id)"
            default:
                repeat { isbn13 = makeISBN13(&g) } while !used.isbns.insert(isbn13 ?? "").inserted
            }
        } else if g.chance(0.6) {
            other = g.pick(libraryPrefixes) + String(format: "%09d", Int.random(in: 0...999_999_999, using: &g))
        }
        let description = g.chance(0.85) ? describe(plan, &g) : nil
        let publisher = g.chance(0.85) ? plan.publishers.filter { $0.exists(in: year) }.randomElement(using: &g) : nil
        let pageCount = g.chance(0.93) ? Int.random(in: plan.pages, using: &g) : nil
        let ratings = g.chance(year >= 2000 ? 0.25 : 0.1) ? makeRatings(&g) : nil
        let categories = g.chance(0.9) ? [plan.category] : []
        let searchText = folded(([plan.title, subtitle ?? ""] + authors).joined(separator: " "))
        return Volume(
            id: id, title: plan.title, subtitle: subtitle, authors: authors, publisher: publisher?.name,
            publishedDate: date, description: description, isbn13: isbn13, hasImages: g.chance(0.88),
            otherIdentifier: other, pageCount: pageCount, averageRating: ratings?.average,
            ratingsCount: ratings?.count, categories: categories, searchText: searchText)
    }

    /// A year in the plan's range, more often a recent one (more editions are in print).
    private static func publicationYear(_ plan: Plan, _ g: inout SeededGenerator) -> Int {
        let span = Double(plan.until - plan.since + 1)
        let skew = plan.kind == .technical ? 1.0 : 1.6
        let back = Int(span * pow(Double.random(in: 0..<1, using: &g), skew))
        return max(plan.since, plan.until - min(back, plan.until - plan.since))
    }

    /// The authors of a volume: distinct names from pools that fit its date.
    private static func makeAuthors(_ plan: Plan, year: Int, _ g: inout SeededGenerator) -> [String] {
        if case .fixed(let author, let translations) = plan.authors {
            // Until a second translation appears, editions credit the first; later, most name one.
            let possible = translations.filter { $0.since <= year }
            if possible.count == 1 { return [author] + possible[0].names }
            guard !possible.isEmpty, g.chance(0.75) else { return [author] }
            return [author] + g.pick(possible).names
        }
        guard !g.chance(0.08) else { return [] }  // the API lists some volumes without authors
        let count: Int =
            switch plan.kind {
            case .technical, .science: g.pick([1, 1, 1, 2, 2, 3])
            case .history, .cooking: g.chance(0.2) ? 2 : 1
            case .fiction, .classic: 1
            }
        let (firsts, lasts) = year >= 1960 ? (firstNames, lastNames) : (olderFirstNames, olderLastNames)
        var names: [String] = []
        var surnames = Set<String>()
        while names.count < count {
            let last = g.pick(lasts)
            guard surnames.insert(last).inserted else { continue }
            let initial = year < 1960 && g.chance(0.3) ? " \(g.pick(Array("ABCDEGHJLMRSTW")))." : ""
            names.append("\(g.pick(firsts))\(initial) \(last)")
        }
        return names
    }

    /// A ratings count and its average, from simulated readers (one rating gives a whole average).
    private static func makeRatings(_ g: inout SeededGenerator) -> (count: Int, average: Double) {
        let count = 1 + Int(pow(Double.random(in: 0..<1, using: &g), 3) * 90)
        let stars = [1, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 5, 5, 5, 5, 5, 5]
        let total = (0..<count).reduce(0) { sum, _ in sum + g.pick(stars) }
        let average = (Double(total) / Double(count) * 2).rounded() / 2
        return (count, min(5, max(1, average)))
    }

    /// What the generated novels are about.
    private static let novelThemes = [
        "loss and renewal", "a family's last summer together", "a town on the eve of war",
        "first love and second chances",
    ]

    /// A description that fits the kind of book.
    private static func describe(_ plan: Plan, _ g: inout SeededGenerator) -> String {
        switch plan.kind {
        case .technical:
            "\(plan.title) takes the reader from first principles to finished work, with exercises in every chapter."
        case .fiction:
            "A novel of \(g.pick(novelThemes))."
        case .classic where plan.title == "War and Peace":
            "Tolstoy's epic of Russian society in the Napoleonic era, following five aristocratic families "
                + "from 1805 to 1820."
        case .classic:
            "Sun Tzu's treatise on strategy, in a complete translation with an introduction and notes."
        case .history where plan.title == "War and Peace":
            "A companion to War and Peace: its characters, its history and its ideas, book by book."
        case .history:
            "\(plan.title) tells the story from its beginnings, with maps, illustrations and a full bibliography."
        case .cooking:
            "More than \(Int.random(in: 8...30, using: &g) * 10) recipes, with notes on techniques, seasons and ingredients."
        case .science:
            "\(plan.title) explains the essentials clearly, with worked examples and problems at the end of each chapter."
        }
    }

    /// A random ISBN-13 in the English-language groups (978-0 and 978-1) with a valid check digit.
    private static func makeISBN13(_ g: inout SeededGenerator) -> String {
        var digits =
            [9, 7, 8, Int.random(in: 0...1, using: &g)] + (0..<8).map { _ in Int.random(in: 0...9, using: &g) }
        let sum = digits.enumerated().reduce(0) { $0 + $1.element * ($1.offset % 2 == 0 ? 1 : 3) }
        digits.append((10 - sum % 10) % 10)
        return digits.map(String.init).joined()
    }
}
