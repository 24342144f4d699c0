import Decoding
import Foundation
import TestSupport
import Testing

/// The code of the DocC landing page, compiled and run against the real fixtures, so the
/// documentation cannot drift from the API.
@Suite struct DocumentationSampleTests {
    struct Book: Codable {
        enum CodingKeys: String, CodingKey {
            case id
            case title = "volumeInfo.title"
            case authors = "volumeInfo.authors"
            case publishedDate = "volumeInfo.publishedDate"
            case isbn13 = "volumeInfo.industryIdentifiers[type=ISBN_13].identifier"
            case thumbnailURL = "volumeInfo.imageLinks.smallThumbnail"
        }

        var id: String
        var title: String
        @TransformedIfPresent<JoinedStrings> var authors: String?  // ["A", "B"] → "A, B"
        var publishedDate: PartialDate?  // "1862", "2016-10", "2016-10-14"
        var isbn13: String?
        var thumbnailURL: URL?
    }

    struct BookPage: Codable {
        enum CodingKeys: String, CodingKey { case books = "items" }
        @DefaultEmpty var books: [Book]  // no "items" key → []
    }

    struct Movie: Decodable {
        var id: Int
        var popularity: Double
    }

    @Test func landingPageSampleRuns() throws {
        let data = try Fixtures.data("googlebooks/volumes_tolstoy_10_items_2015.json")
        let tmdbData = try Fixtures.data("tmdb/search_movie_fight_club_page1.json")

        let (page, report) = try PathDecoder().decodeWithReport(BookPage.self, from: data)
        let movie = try PathDecoder().decode(Movie.self, from: tmdbData, at: "results.first")

        #expect(page.books.count == 10)
        #expect(page.books[0].title == "Childhood and Youth")
        #expect(report.isEmpty)
        #expect(movie.id == 550)
    }

    @Test func handWrittenSampleFromTheArticleRuns() throws {
        struct Volume: Decodable {
            var title: String
            var isbn13: String?
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: AnyCodingKey.self)
                title = try container.decode(String.self, at: "volumeInfo.title")
                isbn13 = try container.decodeIfPresent(
                    String.self, at: "volumeInfo.industryIdentifiers[type=ISBN_13].identifier")
            }
        }
        let volumes = try JSONDecoder().decode(
            [String: [Volume]].self,
            from: try Fixtures.data("googlebooks/volumes_1_item_no_imagelinks.json")
                .filteredToItems())
        #expect(volumes["items"]?.first?.isbn13 == "9780521339056")
    }

    @Test func pathKeysAlsoOpenNestedContainersInHandWrittenCode() throws {
        struct Links: Decodable {
            enum Keys: String, CodingKey { case links = "volumeInfo.imageLinks" }
            enum LinkKeys: String, CodingKey { case smallThumbnail }
            var small: String
            var hasLinks: Bool
            var linksAreNil: Bool
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: Keys.self)
                hasLinks = container.contains(.links)
                linksAreNil = try container.decodeNil(forKey: .links)
                small = try container.nestedContainer(keyedBy: LinkKeys.self, forKey: .links)
                    .decode(String.self, forKey: .smallThumbnail)
            }
        }
        let links = try PathDecoder().decode(
            Links.self, from: json(#"{"volumeInfo": {"imageLinks": {"smallThumbnail": "s"}}}"#))
        #expect(links.small == "s")
        #expect(links.hasLinks)
        #expect(!links.linksAreNil)
    }
}

extension Data {
    /// Keeps only the `items` member of a Google Books response, as `{"items": [...]}`.
    fileprivate func filteredToItems() throws -> Data {
        let object = try JSONSerialization.jsonObject(with: self) as? [String: Any] ?? [:]
        return try JSONSerialization.data(withJSONObject: ["items": object["items"] ?? []])
    }
}
