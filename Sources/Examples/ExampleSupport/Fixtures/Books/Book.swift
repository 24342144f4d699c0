/// One real book of the offline Google Books catalogue: a row of the tables in `Books/`.
///
/// Titles, authors, years of first publication, publishers and categories are facts; page
/// counts are of the right size for a common edition. A book listed under its English title
/// but written in another language says so (`from`), and its year is the original's. ISBNs
/// are in their own table (`Books+ISBN.swift`), only where the edition's number is known.
struct Book: Sendable {
    /// Google Books' categories.
    enum Category: String, Sendable {
        case fiction = "Fiction", juvenileFiction = "Juvenile Fiction", youngAdult = "Young Adult Fiction"
        case poetry = "Poetry", drama = "Drama", comics = "Comics & Graphic Novels"
        case computers = "Computers", science = "Science", mathematics = "Mathematics", history = "History"
        case philosophy = "Philosophy", religion = "Religion", psychology = "Psychology"
        case biography = "Biography & Autobiography", business = "Business & Economics"
        case politics = "Political Science", society = "Social Science", selfHelp = "Self-Help"
        case nature = "Nature", travel = "Travel", art = "Art", cooking = "Cooking", music = "Music"
        case language = "Language Arts & Disciplines", sports = "Sports & Recreation"
    }

    /// The title.
    let title: String
    /// The subtitle, if the book has one.
    let subtitle: String?
    /// The authors (and translators, for a translation known by its translator).
    let authors: [String]
    /// The year of first publication (of the original, for a book written in another language).
    let year: Int
    /// A common edition's page count.
    let pages: Int
    /// The category.
    let category: Category
    /// The first publisher, where it is well known.
    let publisher: String?
    /// The ISO 639-1 code of the language of this title.
    let language: String
    /// The language the book was written in, when this title is a translation.
    let originalLanguage: String?
    /// The series, if the book belongs to one.
    let series: String?
    /// The book's place in its series, from 1, in order of publication.
    let seriesNumber: Int?

    /// A book outside a series.
    ///
    /// - Parameters:
    ///   - authors: the names, separated by `", "`.
    ///   - from: the language the book was written in, for a book listed under a translated title.
    init(
        _ title: String, _ authors: String, _ year: Int, _ pages: Int, _ category: Category,
        publisher: String? = nil, subtitle: String? = nil, language: String = "en", from: String? = nil
    ) {
        self.init(
            title, authors: authors, year: year, pages: pages, category: category, publisher: publisher,
            subtitle: subtitle, language: language, from: from, series: nil, number: nil)
    }

    /// Every field.
    private init(
        _ title: String, authors: String, year: Int, pages: Int, category: Category, publisher: String?,
        subtitle: String?, language: String, from: String?, series: String?, number: Int?
    ) {
        self.title = title
        self.subtitle = subtitle
        self.authors = authors.components(separatedBy: ", ")
        self.year = year
        self.pages = pages
        self.category = category
        self.publisher = publisher
        self.language = language
        originalLanguage = from
        self.series = series
        seriesNumber = number
    }

    /// The book with one more author, such as the writer who finished a series.
    func adding(author: String) -> Book {
        Book(
            title, authors: (authors + [author]).joined(separator: ", "), year: year, pages: pages,
            category: category, publisher: publisher, subtitle: subtitle, language: language,
            from: originalLanguage, series: series, number: seriesNumber)
    }

    /// Every volume of a series, numbered in the order given (the order of publication).
    ///
    /// - Parameters:
    ///   - name: the series.
    ///   - authors: the authors of every volume, separated by `", "`.
    ///   - volumes: each volume's title, year and page count.
    static func series(
        _ name: String, _ authors: String, _ category: Category, publisher: String? = nil, language: String = "en",
        from: String? = nil, _ volumes: [(title: String, year: Int, pages: Int)]
    ) -> [Book] {
        volumes.enumerated().map { offset, volume in
            Book(
                volume.title, authors: authors, year: volume.year, pages: volume.pages, category: category,
                publisher: publisher, subtitle: nil, language: language, from: from, series: name, number: offset + 1)
        }
    }
}
