import ExampleSupport
import Foundation
import Testing

/// The offline Google Books catalogue has the shape of the world it stands for: real books
/// with valid dates and ISBNs, every series complete and in order, no title shared by
/// different authors, and generated samples that say they are samples and never pass for a
/// real book.
@Suite struct BookCatalogueShapeTests {
    static let catalogue = BookCatalogue()
    static var realBooks: [BookCatalogue.Volume] { catalogue.volumes.filter { !$0.isSample } }
    static var samples: [BookCatalogue.Volume] { catalogue.volumes.filter(\.isSample) }

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

    /// The ISBN-13 and ISBN-10 of a volume as the API sends them.
    static func identifiers(of volume: BookCatalogue.Volume) throws -> [String: String] {
        let sent = try JSONSerialization.jsonObject(with: try JSONSerialization.data(withJSONObject: volume.json))
        let info = try #require((sent as? [String: Any])?["volumeInfo"] as? [String: Any])
        let identifiers = info["industryIdentifiers"] as? [[String: String]] ?? []
        return Dictionary(identifiers.compactMap { entry in entry["type"].map { ($0, entry["identifier"] ?? "") } }) {
            first, _ in first
        }
    }

    @Test func theCatalogueHoldsOverAThousandRealBooksWithUniqueIDsAndISBNs() {
        let volumes = Self.catalogue.volumes
        #expect(Self.realBooks.count >= 1_000)
        #expect(Set(volumes.map(\.id)).count == volumes.count)
        let isbns = volumes.compactMap(\.isbn13)
        #expect(isbns.count >= 100)
        #expect(Set(isbns).count == isbns.count)
    }

    @Test func everyRealBookHasAValidYearAuthorsPagesCategoryAndLanguage() {
        var problems: [String] = []
        for book in Self.realBooks {
            let year = book.publishedDate.flatMap { Int($0) }
            if book.publishedDate?.count != 4 || !(1400...CataloguePlausibilityTests.latestYear).contains(year ?? 0) {
                problems.append("\(book.title): date \(book.publishedDate ?? "nil")")
            }
            if book.authors.isEmpty || book.authors.contains(where: { $0.trimmingCharacters(in: .whitespaces).isEmpty })
            {
                problems.append("\(book.title): authors \(book.authors)")
            }
            if !(20...5_000).contains(book.pageCount ?? 0) {
                problems.append("\(book.title): \(book.pageCount ?? 0) pages")
            }
            if book.categories.count != 1 { problems.append("\(book.title): categories \(book.categories)") }
            if book.language.count != 2 { problems.append("\(book.title): language \(book.language)") }
            if book.description?.contains(book.publishedDate ?? "?") != true {
                problems.append("\(book.title): the description does not give the year")
            }
        }
        #expect(problems.isEmpty, "\(problems.count) problems, such as \(problems.prefix(5))")
    }

    @Test func everyISBNHasValidCheckDigitsAndAModernBookBehindIt() throws {
        for book in Self.catalogue.volumes {
            let identifiers = try Self.identifiers(of: book)
            guard let isbn13 = book.isbn13 else {
                #expect(identifiers["ISBN_13"] == nil && identifiers["ISBN_10"] == nil, "\(book.title)")
                continue
            }
            #expect(Self.isValidISBN13(isbn13), "\(book.title): \(isbn13)")
            #expect(identifiers["ISBN_13"] == isbn13, "\(book.title)")
            if let isbn10 = identifiers["ISBN_10"] {
                #expect(Self.isValidISBN10(isbn10), "\(book.title): \(isbn10)")
                #expect(isbn13.hasPrefix("978") && isbn13.dropFirst(3).prefix(9) == isbn10.prefix(9), "\(book.title)")
            }
        }
    }

    @Test func everySeriesIsCompleteAndInOrderOfPublication() {
        let bySeries = Dictionary(grouping: Self.realBooks.filter { $0.series != nil }, by: { $0.series ?? "" })
        #expect(bySeries.count >= 30)
        for (series, books) in bySeries {
            let ordered = books.sorted { ($0.seriesNumber ?? 0) < ($1.seriesNumber ?? 0) }
            #expect(ordered.map(\.seriesNumber) == Array(1...books.count).map { Optional($0) }, "\(series)")
            let years = ordered.compactMap { $0.publishedDate.flatMap { Int($0) } }
            #expect(years == years.sorted(), "\(series): \(zip(ordered.map(\.title), years).map { "\($0) \($1)" })")
        }
    }

    /// Series everyone knows, with their first and last volumes: written here, apart from the
    /// catalogue's tables, so a volume left out fails.
    static let knownSeries: [(name: String, count: Int, first: String, last: String)] = [
        ("Harry Potter", 7, "Harry Potter and the Philosopher's Stone", "Harry Potter and the Deathly Hallows"),
        ("The Lord of the Rings", 3, "The Fellowship of the Ring", "The Return of the King"),
        ("The Chronicles of Narnia", 7, "The Lion, the Witch and the Wardrobe", "The Last Battle"),
        ("A Song of Ice and Fire", 5, "A Game of Thrones", "A Dance with Dragons"),
        ("The Hunger Games", 5, "The Hunger Games", "Sunrise on the Reaping"),
        ("Dune", 6, "Dune", "Chapterhouse: Dune"),
        ("Foundation", 7, "Foundation", "Forward the Foundation"),
        ("Discworld", 41, "The Colour of Magic", "The Shepherd's Crown"),
        ("The Wheel of Time", 14, "The Eye of the World", "A Memory of Light"),
        ("Hercule Poirot", 33, "The Mysterious Affair at Styles", "Curtain"),
        ("Sherlock Holmes", 9, "A Study in Scarlet", "The Case-Book of Sherlock Holmes"),
        ("James Bond", 14, "Casino Royale", "Octopussy and The Living Daylights"),
        ("The Hitchhiker's Guide to the Galaxy", 5, "The Hitchhiker's Guide to the Galaxy", "Mostly Harmless"),
        ("Twilight", 4, "Twilight", "Breaking Dawn"),
        ("His Dark Materials", 3, "Northern Lights", "The Amber Spyglass"),
    ]

    @Test func theSeriesEveryoneKnowsAreThereWholeFromFirstToLast() {
        for known in Self.knownSeries {
            let books = Self.realBooks.filter { $0.series == known.name }
                .sorted { ($0.seriesNumber ?? 0) < ($1.seriesNumber ?? 0) }
            #expect(books.count == known.count, "\(known.name)")
            #expect(books.first?.title == known.first, "\(known.name)")
            #expect(books.last?.title == known.last, "\(known.name)")
        }
    }

    @Test func noTwoBooksShareATitleUnlessTheyAreByTheSameAuthors() {
        let byTitle = Dictionary(grouping: Self.catalogue.volumes) {
            $0.title.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        }
        for (title, books) in byTitle where books.count > 1 {
            #expect(Set(books.map { $0.authors.sorted() }).count == 1, "\"\(title)\" by \(books.map(\.authors))")
        }
        // The issue: five books all titled "Swift Programming" by five different authors.
        #expect(Self.catalogue.volumes.filter { $0.title == "Swift Programming" }.count == 1)
    }

    @Test func generatedSamplesSaySoAndCarryNoFactsOfARealBook() throws {
        #expect(!Self.samples.isEmpty)
        let realTitles = Set(Self.realBooks.map { $0.title.lowercased() })
        for sample in Self.samples {
            #expect(sample.authors == [BookCatalogue.sampleAuthor], "\(sample.title)")
            #expect(sample.publishedDate == nil && sample.publisher == nil && sample.isbn13 == nil, "\(sample.title)")
            #expect(sample.pageCount == nil && !sample.hasImages, "\(sample.title)")
            #expect(sample.description?.hasPrefix("A generated sample volume, not a real book") == true)
            #expect(!realTitles.contains(sample.title.lowercased()), "\(sample.title) is a real book's title")
            #expect(sample.title.contains("Unreal Engine"), "\(sample.title)")
        }
        // Every search lists them after every real book it finds.
        for query in ["Unreal Engine", "unreal engine 5", "game development"] {
            let found = Self.catalogue.matches(query)
            let firstSample = found.firstIndex(where: \.isSample) ?? found.count
            #expect(!found[firstSample...].contains { !$0.isSample }, "\(query)")
        }
    }

    @Test func theReadmeSearchStillFillsTenPagesAndARareOneEndsShort() {
        #expect(Self.catalogue.matches("Unreal Engine").count > 400)
        let christie = Self.catalogue.matches("christie").count
        #expect(christie > 40 && christie % 40 != 0)
        #expect(Self.catalogue.matches("qwxzzyv").isEmpty)
    }
}
