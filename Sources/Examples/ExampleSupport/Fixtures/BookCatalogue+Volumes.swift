import SeededRandom

extension BookCatalogue {
    /// The volume of a real book of the tables.
    static func book(for book: Book, ids: inout Set<String>) -> Volume {
        let id = volumeID(for: book.title + "|" + book.authors.joined(separator: ", "), ids: &ids)
        let otherTitles = Books.otherTitles[book.title] ?? []
        let titles = [book.title] + (book.subtitle.map { ["\(book.title): \($0)"] } ?? []) + otherTitles
        return Volume(
            id: id, title: book.title, subtitle: book.subtitle, authors: book.authors, publisher: book.publisher,
            publishedDate: String(book.year), description: describe(book), isbn13: Books.isbns[book.title],
            hasImages: id.utf8.reduce(0, { $0 + Int($1) }) % 10 != 0, otherIdentifier: nil, pageCount: book.pages,
            categories: [book.category.rawValue], language: book.language, series: book.series,
            seriesNumber: book.seriesNumber, isSample: false, otherTitles: otherTitles,
            searchText: SearchText(titles + (book.subtitle.map { [$0] } ?? []) + book.authors + [book.series ?? ""]),
            titleText: SearchText(titles))
    }

    /// Our sentence about a real book: what it is, by whom, and when it first appeared.
    private static func describe(_ book: Book) -> String {
        let kind: String =
            switch book.category {
            case .fiction: "a novel"
            case .juvenileFiction: "a book for children"
            case .youngAdult: "a novel for young adults"
            case .poetry: "poetry"
            case .drama: "a play"
            case .comics: "a graphic novel"
            case .computers: "a book on computing"
            case .biography: "a memoir or biography"
            case .cooking: "a cookbook"
            default: "a book of \(book.category.rawValue.lowercased())"
            }
        let names =
            book.authors.count < 2
            ? book.authors.joined()
            : book.authors.dropLast().joined(separator: ", ") + " and " + (book.authors.last ?? "")
        let written = book.originalLanguage.map { " in \(languageNames[$0] ?? $0)" } ?? ""
        let place =
            book.series.flatMap { series in
                book.seriesNumber.map { " It is book \($0) of \(series)." }
            } ?? ""
        return "\(book.title) is \(kind) by \(names), first published\(written) in \(book.year).\(place)"
    }

    /// English names of the languages the tables name.
    private static let languageNames = [
        "ar": "Arabic", "cs": "Czech", "da": "Danish", "de": "German", "es": "Spanish", "fa": "Persian",
        "fr": "French", "he": "Hebrew", "it": "Italian", "ja": "Japanese", "la": "Latin", "nl": "Dutch",
        "no": "Norwegian", "pl": "Polish", "pt": "Portuguese", "ru": "Russian", "sv": "Swedish", "yi": "Yiddish",
        "zh": "Chinese",
    ]

    /// How many sample volumes are generated: with the real Unreal Engine books, enough for
    /// more than ten pages of forty.
    static let sampleCount = 440

    /// The generated sample volumes: Unreal Engine titles made from versions and subjects,
    /// none equal to a real book's title, in a fixed shuffled order.
    static func samples(avoiding realTitles: Set<String>, ids: inout Set<String>) -> [Volume] {
        let engines = [
            "Unreal Engine", "Unreal Engine 4", "Unreal Engine 4.x", "Unreal Engine 5", "Unreal Engine 5.1",
            "Unreal Engine 5.3",
        ]
        let prefixes = [
            "Learning", "Mastering", "Beginning", "Hands-On", "Practical", "Exploring", "Getting Started with",
            "An Introduction to",
        ]
        let subjects = [
            "Game Development", "Blueprints", "C++ Programming", "Virtual Reality Projects", "Level Design",
            "Lighting and Rendering", "Multiplayer Games", "Character Animation", "Cookbook", "Shaders and Effects",
            "Game AI", "Essentials", "for Architects", "Projects", "Scripting", "Open Worlds",
            "Game Development Essentials",
        ]
        let leads = [
            "Game Development with", "Blueprints Visual Scripting for", "Multiplayer Game Programming in",
            "Building Open Worlds in", "Virtual Reality Projects with", "Level Design in",
            "Architectural Visualization in", "Game AI Programming with",
        ]
        var titles = engines.flatMap { engine in prefixes.map { "\($0) \(engine)" } }
        titles += engines.flatMap { engine in subjects.map { "\(engine) \($0)" } }
        titles += engines.flatMap { engine in
            ["Learning", "Mastering", "Hands-On", "Practical"].flatMap { prefix in
                subjects.filter { !["Essentials", "Projects", "Cookbook"].contains($0) }.map {
                    "\(prefix) \(engine) \($0)"
                }
            }
        }
        titles += engines.flatMap { engine in leads.map { "\($0) \(engine)" } }
        var generator = SeededGenerator(seed: 0x600D_B00C)
        titles.shuffle(using: &generator)
        return titles.filter { !realTitles.contains(folded($0)) }.prefix(sampleCount).enumerated().map {
            offset, title in
            let id = volumeID(for: title, ids: &ids)
            return Volume(
                id: id, title: title, subtitle: nil, authors: [sampleAuthor], publisher: nil, publishedDate: nil,
                description: "A generated sample volume, not a real book: FetchKit's offline catalogue makes up "
                    + "titles like this one so that a subject search such as \"Unreal Engine\" fills ten pages.",
                isbn13: nil, hasImages: false, otherIdentifier: "FETCHKIT:SAMPLE-\(offset + 1)", pageCount: nil,
                categories: ["Computers"], language: "en", series: nil, seriesNumber: nil, isSample: true,
                otherTitles: [], searchText: SearchText([title]), titleText: SearchText([title]))
        }
    }
}
