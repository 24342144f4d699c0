import Decoding
import Foundation
import TestSupport
import Testing

@Suite struct EncodingTests {
    let encoder = PathEncoder { $0.outputFormatting = .sortedKeys }

    @Test func pathKeysEncodeAsNestedObjects() throws {
        let book = Book(
            id: "x1", title: "Dawn", authors: "Ada Lovelace, Grace Hopper", publisher: nil,
            publishedDate: try PartialDate("2016-10"), bookDescription: nil, isbn13: "9781514005668",
            thumbnailURL: URL(string: "http://example.com/t.png"))
        let text = String(decoding: try encoder.encode(book), as: UTF8.self)
        #expect(
            text
                == #"{"id":"x1","volumeInfo":{"authors":["Ada Lovelace","Grace Hopper"],"imageLinks":{"smallThumbnail":"http:\/\/example.com\/t.png"},"industryIdentifiers":[{"identifier":"9781514005668","type":"ISBN_13"}],"publishedDate":"2016-10","title":"Dawn"}}"#
        )
    }

    @Test func realBooksRoundTrip() throws {
        for name in [
            "googlebooks/volumes_dawn_page1_30_items.json", "googlebooks/volumes_tolstoy_10_items_2015.json",
            "googlebooks/volumes_zero_results.json",
        ] {
            let page = try PathDecoder().decode(BookPage.self, from: try Fixtures.data(name))
            let again = try PathDecoder().decode(BookPage.self, from: try encoder.encode(page))
            #expect(again == page, "\(name)")
        }
    }

    @Test func photosRoundTrip() throws {
        let photos = try PathDecoder().decode(
            [Photo].self, from: try Fixtures.data("flickr/photos_with_geo_extras_2014.json"), at: "photos.photo")
        let data = try encoder.encode(photos)
        #expect(try PathDecoder().decode([Photo].self, from: data) == photos)
        #expect(String(decoding: data, as: UTF8.self).contains(#""description":{"_content":""}"#))
    }

    @Test func nilOptionalsCreateNoParentObjects() throws {
        struct Sparse: Codable {
            enum CodingKeys: String, CodingKey { case thumbnail = "volumeInfo.imageLinks.smallThumbnail" }
            var thumbnail: String?
        }
        #expect(String(decoding: try encoder.encode(Sparse(thumbnail: nil)), as: UTF8.self) == "{}")
    }

    @Test func firstAndLastEachAppendAnElement() throws {
        struct Ends: Codable, Equatable {
            enum CodingKeys: String, CodingKey {
                case first = "tags.first"
                case last = "tags.last"
            }
            var first: String
            var last: String
        }
        let value = Ends(first: "a", last: "z")
        let data = try encoder.encode(value)
        #expect(String(decoding: data, as: UTF8.self) == #"{"tags":["a","z"]}"#)
        #expect(try PathDecoder().decode(Ends.self, from: data) == value)
    }

    @Test func escapedKeysEncodeWithTheirDot() throws {
        struct Meta: Codable {
            enum CodingKeys: String, CodingKey { case version = #"meta\.version"# }
            var version: Int
        }
        #expect(String(decoding: try encoder.encode(Meta(version: 2)), as: UTF8.self) == #"{"meta.version":2}"#)
    }

    @Test func pathsThatCannotBeWrittenBackThrow() {
        struct Deep: Encodable {
            enum CodingKeys: String, CodingKey { case third = "items.2.name" }
            var third = "x"
        }
        let error = #expect(throws: EncodingError.self) { try encoder.encode(Deep()) }
        guard case .invalidValue(_, let context)? = error else {
            Issue.record("expected invalidValue")
            return
        }
        #expect(context.debugDescription.contains(#"cannot write path "items.2.name" back"#))
    }

    @Test func plainTypesEncodeExactlyAsJSONEncoderDoes() throws {
        struct Plain: Codable {
            var name = "n"
            var values = [1, 2]
            var nested = ["a.b": 1]
            var when = Date(timeIntervalSince1970: 0)
        }
        let plain = JSONEncoder()
        plain.outputFormatting = .sortedKeys
        #expect(try encoder.encode(Plain()) == plain.encode(Plain()))
    }
}
