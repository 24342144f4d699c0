import Decoding
import Foundation
import Testing

@Suite struct NestedKeyDecodingTests {
    struct Thumbnail: Codable, Equatable {
        enum CodingKeys: String, CodingKey {
            case url = "links.small"
            case width = "size.w"
        }
        var url: String
        var width: Int
    }

    struct Volume: Codable, Equatable {
        enum CodingKeys: String, CodingKey {
            case title = "info.title"
            case cover = "info.cover"
            case gallery = "info.gallery"
            case byName = "info.byName"
        }
        var title: String
        var cover: Thumbnail
        var gallery: [Thumbnail]
        var byName: [String: Thumbnail]
    }

    let nested = json(
        #"""
        {"info": {"title": "T",
                  "cover": {"links": {"small": "s.png"}, "size": {"w": 10}},
                  "gallery": [{"links": {"small": "a"}, "size": {"w": 1}}, {"links": {"small": "b"}, "size": {"w": 2}}],
                  "byName": {"x.y": {"links": {"small": "c"}, "size": {"w": 3}}}}}
        """#)

    @Test func nestedTypesArraysAndDictionariesUseTheirOwnPathKeys() throws {
        let volume = try PathDecoder().decode(Volume.self, from: nested)
        #expect(volume.title == "T")
        #expect(volume.cover == Thumbnail(url: "s.png", width: 10))
        #expect(volume.gallery.map(\.url) == ["a", "b"])
        #expect(volume.gallery.map(\.width) == [1, 2])
        // Dictionary keys come from the data and are never paths, even with a dot.
        #expect(volume.byName == ["x.y": Thumbnail(url: "c", width: 3)])
    }

    @Test func plainTypesDecodeExactlyAsJSONDecoderDoes() throws {
        struct Plain: Codable, Equatable {
            var name: String
            var count: Int
            var ratio: Double
            var flags: [Bool]
            var nested: [String: [Int]]
            var when: Date
            var link: URL
            var amount: Decimal
            var blob: Data
            var maybe: String?
        }
        let data = json(
            #"""
            {"name": "n", "count": 3, "ratio": 0.5, "flags": [true, false], "nested": {"a.b": [1, 2]},
             "when": 1000, "link": "https://example.com/x?y=1", "amount": 12.5, "blob": "AAEC", "maybe": null}
            """#)
        let expected = try JSONDecoder().decode(Plain.self, from: data)
        #expect(try PathDecoder().decode(Plain.self, from: data) == expected)
    }

    @Test func dateStrategyAppliesToPathKeyedProperties() throws {
        struct Event: Decodable {
            enum CodingKeys: String, CodingKey { case when = "meta.when" }
            var when: Date
        }
        let decoder = PathDecoder { $0.dateDecodingStrategy = .iso8601 }
        let event = try decoder.decode(Event.self, from: json(#"{"meta": {"when": "2016-10-14T00:00:00Z"}}"#))
        #expect(event.when == Date(timeIntervalSince1970: 1_476_403_200))
    }

    @Test func snakeCaseStrategyAppliesToEveryStep() throws {
        struct Row: Decodable {
            enum CodingKeys: String, CodingKey { case total = "pageInfo.totalResults" }
            var total: Int
        }
        let decoder = PathDecoder { $0.keyDecodingStrategy = .convertFromSnakeCase }
        #expect(try decoder.decode(Row.self, from: json(#"{"page_info": {"total_results": 39}}"#)).total == 39)
    }

    @Test func escapedDotAddressesAKeyThatContainsADot() throws {
        struct Meta: Decodable {
            enum CodingKeys: String, CodingKey {
                case version = #"meta\.version"#
                case nested = #"outer.meta\.version"#
            }
            var version: String
            var nested: Int
        }
        let meta = try PathDecoder().decode(
            Meta.self, from: json(#"{"meta.version": "2", "outer": {"meta.version": 3}}"#))
        #expect(meta.version == "2")
        #expect(meta.nested == 3)
    }

    @Test func objectKeysNamedFirstOrDigitsAreKeysOnObjects() throws {
        struct Odd: Decodable {
            enum CodingKeys: String, CodingKey {
                case first = "names.first"
                case zero = "slots.0"
            }
            var first: String
            var zero: String
        }
        let odd = try PathDecoder().decode(Odd.self, from: json(#"{"names": {"first": "Ada"}, "slots": {"0": "z"}}"#))
        #expect(odd.first == "Ada")
        #expect(odd.zero == "z")
    }

    @Test func literalCodingKeysAreNeverPaths() throws {
        struct Dynamic: Decodable {
            var values: [String: Int] = [:]
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: AnyCodingKey.self)
                for key in container.allKeys {
                    values[key.stringValue] = try container.decode(Int.self, forKey: key)
                }
            }
        }
        let dynamic = try PathDecoder().decode(Dynamic.self, from: json(#"{"a.b": 1, "c": 2}"#))
        #expect(dynamic.values == ["a.b": 1, "c": 2])
    }

    @Test func topLevelArraysAndPathsIntoThem() throws {
        let data = json(#"[{"id": 1, "tags": ["x", "y"]}, {"id": 2, "tags": []}]"#)
        #expect(try PathDecoder().decode(Int.self, from: data, at: "last.id") == 2)
        #expect(try PathDecoder().decode(String.self, from: data, at: "0.tags.last") == "y")
        #expect(try PathDecoder().decode(String?.self, from: data, at: "1.tags.first") == nil)
    }
}
