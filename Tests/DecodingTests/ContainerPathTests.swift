import Decoding
import Foundation
import TestSupport
import Testing

@Suite struct ContainerPathTests {
    /// A hand-written `init(from:)` that reads paths, decodable with a plain JSONDecoder.
    struct HandWrittenBook: Decodable {
        var title: String
        var isbn13: String?
        var thumbnail: String?
        var firstAuthor: String?

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyCodingKey.self)
            title = try container.decode(String.self, at: "volumeInfo.title")
            isbn13 = try container.decodeIfPresent(
                String.self, at: "volumeInfo.industryIdentifiers[type=ISBN_13].identifier")
            thumbnail = try container.decodeIfPresent(String.self, at: "volumeInfo.imageLinks.smallThumbnail")
            firstAuthor = try container.decodeIfPresent(String.self, at: "volumeInfo.authors.first")
        }
    }

    struct Page: Decodable {
        var items: [HandWrittenBook]
    }

    @Test func handWrittenInitReadsPathsWithAPlainJSONDecoder() throws {
        let page = try JSONDecoder().decode(
            Page.self, from: try Fixtures.data("googlebooks/volumes_dawn_page1_30_items.json"))
        #expect(page.items[0].title == "Dawn")
        #expect(page.items[0].isbn13 == "9781514005668")
        #expect(page.items[0].firstAuthor == "Cees Dekker")
        #expect(page.items[14].thumbnail == nil)
        #expect(page.items[18].isbn13 == nil)
    }

    @Test func handWrittenInitReadsPathsThroughPathDecoder() throws {
        let books = try PathDecoder().decode(
            [HandWrittenBook].self, from: try Fixtures.data("googlebooks/volumes_tolstoy_10_items_2015.json"),
            at: "items")
        #expect(books.count == 10)
        #expect(books[1].firstAuthor == nil)
        #expect(books[0].firstAuthor == "graf Leo Tolstoy")
    }

    @Test func containsPathTellsWhetherEveryStepExists() throws {
        struct Probe: Decodable {
            var hasThumbnail: Bool
            var hasISBN: Bool
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: AnyCodingKey.self)
                hasThumbnail = container.contains(path: "volumeInfo.imageLinks.smallThumbnail")
                hasISBN = container.contains(path: "volumeInfo.industryIdentifiers[type=ISBN_13]")
            }
        }
        let probe = try JSONDecoder().decode(
            Probe.self,
            from: json(#"{"volumeInfo": {"industryIdentifiers": [{"type": "ISBN_13", "identifier": "1"}]}}"#))
        #expect(!probe.hasThumbnail)
        #expect(probe.hasISBN)
    }

    @Test func aKeyTypeThatCannotNameTheFirstStepSaysSo() throws {
        struct Narrow: Decodable {
            enum Keys: String, CodingKey { case title }
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: Keys.self)
                _ = try container.decode(String.self, at: "volumeInfo.title")
            }
        }
        let error = #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Narrow.self, from: json(#"{"volumeInfo": {"title": "x"}}"#))
        }
        let failure = try #require(error.map(DecodingFailure.init))
        #expect(failure.message.contains("AnyCodingKey"))
    }
}
