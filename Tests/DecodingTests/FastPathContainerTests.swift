import Foundation
import TestSupport
import Testing

@testable import Decoding

/// Hand-written `init(from:)` code through every container call the fast path serves.
@Suite struct FastPathContainerTests {
    /// Reads the Google Books page with paths, nested containers, `contains` and `decodeNil`.
    struct HandWritten: Decodable, Equatable {
        var title: String
        var isbn: String?
        var hasImages: Bool
        var thumbnailIsNil: Bool
        var missingIsNil: Bool
        var identifierTypes: [String]
        var keys: Set<String>
        var firstAuthor: String?
        var count: Int?

        init(from decoder: any Decoder) throws {
            let root = try decoder.container(keyedBy: AnyCodingKey.self)
            title = try root.decode(String.self, at: "items.first.volumeInfo.title")
            isbn = try root.decodeIfPresent(
                String.self, at: "items[0].volumeInfo.industryIdentifiers[type=ISBN_13].identifier")
            hasImages = root.contains(path: "items.first.volumeInfo.imageLinks")
            let items = try root.nestedUnkeyedContainer(forKey: AnyCodingKey("items"))
            count = items.count
            var first = items
            let book = try first.nestedContainer(keyedBy: AnyCodingKey.self)
            let info = try book.nestedContainer(keyedBy: AnyCodingKey.self, forKey: AnyCodingKey("volumeInfo"))
            thumbnailIsNil = try info.decodeNil(forKey: AnyCodingKey("title"))
            missingIsNil = try root.decodeNil(forKey: AnyCodingKey("totalItems"))
            var identifiers = try info.nestedUnkeyedContainer(forKey: AnyCodingKey("industryIdentifiers"))
            var types: [String] = []
            while !identifiers.isAtEnd {
                let identifier = try identifiers.nestedContainer(keyedBy: AnyCodingKey.self)
                types.append(try identifier.decode(String.self, forKey: AnyCodingKey("type")))
            }
            identifierTypes = types
            keys = Set(info.allKeys.map(\.stringValue))
            var authors = try info.nestedUnkeyedContainer(forKey: AnyCodingKey("authors"))
            firstAuthor = try authors.decodeIfPresent(String.self)
        }
    }

    /// A path-keyed type that asks its container for `contains` and `decodeNil` through paths.
    struct Probe: Decodable, Equatable {
        enum CodingKeys: String, CodingKey {
            case title = "volumeInfo.title"
            case missing = "volumeInfo.nothing.deeper"
            case identifier = "volumeInfo.industryIdentifiers.last.identifier"
        }
        var hasTitle: Bool
        var hasMissing: Bool
        var missingIsNil: Bool
        var identifierIsNil: Bool

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            hasTitle = container.contains(.title)
            hasMissing = container.contains(.missing)
            missingIsNil = try container.decodeNil(forKey: .missing)
            identifierIsNil = try container.decodeNil(forKey: .identifier)
        }
    }

    /// An enum with associated values, as the compiler decodes it.
    enum Shape: Decodable, Equatable {
        case circle(radius: Double)
        case square(side: Int, label: String?)
    }

    @Test func handWrittenContainerCodeDecodesTheSameBothWays() throws {
        let data = try Fixtures.data("googlebooks/volumes_dawn_page1_30_items.json")
        #expect(Differential.compare(HandWritten.self, data) == .decoded)
        #expect(Differential.compare([Probe].self, data, at: "items") == .decoded)
    }

    @Test func enumsWithAssociatedValuesDecodeTheSameBothWays() {
        #expect(Differential.compare(Shape.self, json(#"{"circle": {"radius": 2.5}}"#)) == .decoded)
        #expect(
            Differential.compare([Shape].self, json(#"[{"square": {"side": 3}}, {"circle": {"radius": 1}}]"#))
                == .decoded)
        Differential.compare(Shape.self, json(#"{"circle": {"radius": 2.5}, "square": {"side": 1}}"#))
    }

    /// The keys of an object, in the order its keyed container lists them.
    struct KeyOrder: Decodable {
        var keys: [String]

        init(from decoder: any Decoder) throws {
            keys = try decoder.container(keyedBy: AnyCodingKey.self).allKeys.map(\.stringValue)
        }
    }

    @Test func allKeysComeInTheDocumentsOrder() throws {
        let data = json(#"{"b": 1, "a": 2, "c": 3, "d": 4, "e": 5}"#)
        #expect(try PathDecoder().fastDecode(KeyOrder.self, from: data).keys == ["b", "a", "c", "d", "e"])
        #expect(try PathDecoder().decode(KeyOrder.self, from: data).keys == ["b", "a", "c", "d", "e"])
    }

    @Test func integerKeysThatNameOneIntegerTwiceKeepTheLastInTheDocument() throws {
        let data = json(#"{"1": "first", "01": "second", "001": "third"}"#)
        #expect(try PathDecoder().decode([Int: String].self, from: data) == [1: "third"])
    }
}
