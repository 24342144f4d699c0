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

    private static let unrealPrefixes = [
        "Learning", "Mastering", "Beginning", "Hands-On", "Practical", "Pro", "Exploring", "Getting Started with",
        "The Complete Guide to", "Game Development with", "Blueprints Visual Scripting for", "An Introduction to",
    ]
    private static let unrealVersions = ["4", "4.x", "5", "5.1", "5.3", ""]
    private static let unrealSubjects = [
        "Game Development", "Blueprints", "C++ Programming", "Virtual Reality Projects", "Level Design",
        "Lighting and Rendering", "Multiplayer Games", "Character Animation", "Cookbook", "Shaders and Effects",
        "Game AI", "Essentials", "for Architects", "Projects", "Scripting", "Open Worlds",
    ]
    private static let otherTopics: [(String, [String])] = [
        ("Unity", ["Game Development", "Cookbook", "in Action", "Shaders", "for Beginners", "2D Games"]),
        ("Godot", ["Game Engine Projects", "4 Essentials", "by Example"]),
        ("Swift", ["Programming", "Concurrency", "on the Server", "Apprentice", "Design Patterns"]),
        ("Python", ["Crash Course", "for Data Analysis", "Cookbook", "Tricks", "Testing"]),
        ("SQLite", ["The Definitive Guide", "for Mobile Apps", "Internals"]),
        ("Game Design", ["Workshop", "Fundamentals", "Patterns", "Secrets"]),
        ("Rust", ["in Action", "Programming", "Atomics and Locks"]),
        ("Dawn", ["of the Planet", "Chorus", "Treader", "A Novel"]),
        ("War and Peace", ["Volume I", "Volume II", "A Reader's Guide"]),
        ("The Art of", ["Computer Programming", "Game Design", "French Cooking", "War", "Electronics"]),
        ("History of", ["Rome", "the Railways", "Typography", "Mathematics", "Clocks"]),
        ("Zeppelin", ["Airships of the Great War", "The Golden Age"]),
        ("Physics", ["for Game Developers", "of Light", "Made Simple"]),
        ("Cooking", ["at Home", "with Fire", "for One"]),
    ]
    private static let firstNames = [
        "Andrew", "Maria", "Kenji", "Olga", "Tom", "Priya", "Lucas", "Amélie", "Sven", "Chiara", "David", "Fatima",
        "Marek", "Yuki", "Elena", "Samuel", "Ingrid", "Omar", "Zoë", "Ravi",
    ]
    private static let lastNames = [
        "Sanders", "Okafor", "Tanaka", "Ivanova", "Shannon", "Raman", "Moreau", "Lindqvist", "Rossi", "Nguyen",
        "Kowalski", "Haddad", "Dubois", "Schmidt", "García", "O'Brien", "Müller", "Petrov", "Chen", "Walsh",
    ]
    private static let publishers = [
        "CRC Press", "Packt Publishing Ltd", "Apress", "No Starch Press", "O'Reilly Media, Inc.", "Manning",
        "Addison-Wesley Professional", "Penguin UK", "Vintage", "InterVarsity Press", "Springer Nature",
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
        if index % 5 < 2 {
            let version = g.pick(unrealVersions)
            let engine = version.isEmpty ? "Unreal Engine" : "Unreal Engine \(version)"
            title = "\(g.pick(unrealPrefixes)) \(engine) \(g.pick(unrealSubjects))"
            if g.chance(0.3) { subtitle = "Build \(g.pick(["games", "worlds", "tools", "experiences"])) step by step" }
        } else {
            let (topic, endings) = otherTopics[index % otherTopics.count]
            title = "\(topic) \(g.pick(endings))"
            if g.chance(0.2) { subtitle = "Edition \(Int.random(in: 2...5, using: &g))" }
        }
        var id: String
        repeat {
            id = String((0..<12).map { _ in g.pick(idAlphabet) })
        } while !usedIDs.insert(id).inserted
        let authorCount = g.chance(0.08) ? 0 : Int.random(in: 1...3, using: &g)
        let authors = (0..<authorCount).map { _ in "\(g.pick(firstNames)) \(g.pick(lastNames))" }
        let year = Int.random(in: 1862...2024, using: &g)
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
        switch Int.random(in: 0..<20, using: &g) {
        case 0, 1: break
        case 2: other = "PKEY:\(id)"
        default: isbn13 = makeISBN13(&g)
        }
        let description: String? =
            g.chance(0.85)
            ? "\(title) takes the reader from first principles to finished work, with exercises in every chapter."
            : nil
        let searchText = folded(([title, subtitle ?? ""] + authors).joined(separator: " "))
        return Volume(
            id: id, title: title, subtitle: subtitle, authors: authors,
            publisher: g.chance(0.8) ? g.pick(publishers) : nil, publishedDate: date, description: description,
            isbn13: isbn13, hasImages: g.chance(0.88), otherIdentifier: other, searchText: searchText)
    }

    private static func makeISBN13(_ g: inout SeededGenerator) -> String {
        var digits = [9, 7, 8] + (0..<9).map { _ in Int.random(in: 0...9, using: &g) }
        let sum = digits.enumerated().reduce(0) { $0 + $1.element * ($1.offset % 2 == 0 ? 1 : 3) }
        digits.append((10 - sum % 10) % 10)
        return digits.map(String.init).joined()
    }
}
