public import Foundation

/// The offline Google Books catalogue: real books, and generated sample volumes where a
/// subject search needs pages of results, shaped like `GET /books/v1/volumes` items (the
/// shapes of the real responses recorded in `Tests/Support/TestSupport/Fixtures/googlebooks/`:
/// year-only dates, volumes without ISBNs or images, ISBN-13 and ISBN-10 pairs in either
/// order, `OTHER` identifiers).
///
/// The real books (the tables in `Books/`) are classics across languages, every volume of the
/// popular series in order, and the best-known books on programming and computing, with their
/// real authors, year of first publication, first publisher where it is well known, a common
/// edition's page count, category, and the ISBN-13 of a well-known edition where we know it.
/// The descriptions are our own sentences.
///
/// The generated sample volumes exist only so that `Unreal Engine`, the README's search,
/// fills ten pages of forty: titles made from Unreal Engine versions and subjects, never a
/// real book's title, each credited to "generated sample, not a real book", with no date,
/// publisher or ISBN, and listed after every real book a search finds.
public struct BookCatalogue: Sendable {
    /// What the generated sample volumes give as their author, so that no one takes them for
    /// real books.
    public static let sampleAuthor = "generated sample, not a real book"

    /// One volume as the JSON object the API returns.
    public struct Volume: Sendable {
        /// The volume id, such as `"pideEAAAQBAJ"`.
        public var id: String
        /// The title.
        public var title: String
        /// The subtitle, if any.
        public var subtitle: String?
        /// The authors (a generated sample's is ``BookCatalogue/sampleAuthor``).
        public var authors: [String]
        /// The publisher, if known.
        public var publisher: String?
        /// The year of first publication, such as `"1965"`; nil for a generated sample.
        public var publishedDate: String?
        /// The description, if any.
        public var description: String?
        /// The ISBN-13, if the volume has one.
        public var isbn13: String?
        /// Whether the volume has image links.
        public var hasImages: Bool
        /// An `OTHER` identifier, for the generated samples (`FETCHKIT:SAMPLE-12`).
        public var otherIdentifier: String?
        /// The number of pages, when known.
        public var pageCount: Int?
        /// The Google Books categories, such as `["Computers"]`.
        public var categories: [String]
        /// The ISO 639-1 code of the language of the volume's title, such as `"en"` or `"ru"`.
        public var language: String
        /// The series the book belongs to, if any.
        public var series: String?
        /// The book's place in its series, from 1, in order of publication.
        public var seriesNumber: Int?
        /// Whether this is a generated sample volume rather than a real book.
        public var isSample: Bool
        /// Other titles the book is known by, such as `1984` for `Nineteen Eighty-Four`.
        public var otherTitles: [String]
        /// The title, subtitle, other titles, authors and series, for matching.
        let searchText: SearchText
        /// The title, the title with its subtitle, and the other titles, for ranking.
        let titleText: SearchText

        /// The JSON object of this volume, as the API sends it.
        public var json: [String: Any] {
            var info: [String: Any] = ["title": title, "authors": authors]
            if let subtitle { info["subtitle"] = subtitle }
            if let publisher { info["publisher"] = publisher }
            if let publishedDate { info["publishedDate"] = publishedDate }
            if let description { info["description"] = description }
            if let isbn13 {
                let thirteen = ["type": "ISBN_13", "identifier": isbn13]
                if isbn13.hasPrefix("978") {
                    // Google Books lists the pair in either order; the path `[type=ISBN_13]` finds it.
                    let ten = ["type": "ISBN_10", "identifier": BookCatalogue.isbn10(fromISBN13: isbn13)]
                    info["industryIdentifiers"] =
                        id.utf8.reduce(0, { $0 + Int($1) }) % 2 == 0 ? [thirteen, ten] : [ten, thirteen]
                } else {
                    info["industryIdentifiers"] = [thirteen]
                }
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
            info["language"] = language
            info["printType"] = "BOOK"
            info["readingModes"] = ["text": false, "image": !isSample]
            return [
                "kind": "books#volume", "id": id, "etag": String(id.reversed().prefix(11)),
                "selfLink": "https://www.googleapis.com/books/v1/volumes/\(id)", "volumeInfo": info,
                "saleInfo": ["country": "US", "saleability": "NOT_FOR_SALE", "isEbook": false],
            ]
        }
    }

    /// Every volume, in catalogue order: the real books, then the generated samples.
    public let volumes: [Volume]

    /// Builds the catalogue (deterministic: the same on every call).
    public init() {
        volumes = Self.shared
    }

    /// The catalogue's volumes, built once.
    private static let shared: [Volume] = {
        var ids = Set<String>()
        let real = Books.all.map { book(for: $0, ids: &ids) }
        let realTitles = Set(real.map { folded($0.title) })
        return real + samples(avoiding: realTitles, ids: &ids)
    }()

    /// The volumes a search finds, best first, as Google Books ranks them: a title (or other
    /// title) equal to the whole query first, then books whose title holds every word, then
    /// those found by author or series, each group in catalogue order (a series in its order),
    /// the generated samples after every real book. Every word of the query must start a word
    /// of the title, subtitle, authors or series, in any order, ignoring case and accents.
    /// `isbn:NNN` finds a book by its ISBN-13 or ISBN-10.
    ///
    /// - Parameter query: the `q` parameter of a search.
    /// - Returns: the matching volumes; none for a query without letters or digits.
    public func matches(_ query: String) -> [Volume] {
        let trimmed = query.trimmingCharacters(in: .whitespaces)
        if trimmed.lowercased().hasPrefix("isbn:") {
            let isbn = trimmed.dropFirst(5).filter(\.isNumber)
            return volumes.filter { volume in
                guard let isbn13 = volume.isbn13 else { return false }
                return isbn13 == isbn || Self.isbn10(fromISBN13: isbn13) == isbn
            }
        }
        let query = SearchText.Query(query)
        let ranked: [(rank: Int, index: Int)] = volumes.indices.compactMap { index in
            let volume = volumes[index]
            guard volume.searchText.contains(query) else { return nil }
            let rank =
                volume.titleText.isExactly(query) ? 0 : volume.titleText.contains(query) ? 1 : 2
            return ((volume.isSample ? 3 : 0) + rank, index)
        }
        return ranked.sorted { ($0.rank, $0.index) < ($1.rank, $1.index) }.map { volumes[$0.index] }
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

    /// The ISBN-10 that corresponds to a `978` ISBN-13 (an ISBN-13 starting `979` has none).
    static func isbn10(fromISBN13 isbn13: String) -> String {
        guard isbn13.hasPrefix("978") else { return "" }
        let core = Array(isbn13.dropFirst(3).prefix(9)).compactMap { $0.wholeNumberValue }
        guard core.count == 9 else { return "" }
        let sum = core.enumerated().reduce(0) { $0 + $1.element * (10 - $1.offset) }
        let check = (11 - sum % 11) % 11
        return core.map(String.init).joined() + (check == 10 ? "X" : String(check))
    }

    /// A volume id like Google's: 12 characters from a hash of the text, unique in `ids`.
    static func volumeID(for text: String, ids: inout Set<String>) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        while true {
            var value = hash
            let id = String(
                (0..<12).map { _ in
                    defer { value = value / 64 &+ (value % 64) &* 0x9E37_79B9_7F4A_7C15 }
                    return alphabet[Int(value % 64)]
                })
            if ids.insert(id).inserted { return id }
            hash = hash &* 0x0000_0100_0000_01B3 &+ 1
        }
    }
}
