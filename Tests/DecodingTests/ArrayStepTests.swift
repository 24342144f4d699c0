import Decoding
import Foundation
import Testing

@Suite struct ArrayStepTests {
    let identifiers = json(
        #"""
        {"volumeInfo": {"industryIdentifiers": [
            {"type": "ISBN_10", "identifier": "1498765424"},
            {"type": "ISBN_13", "identifier": "9781498765428"},
            {"type": "OTHER", "identifier": "PKEY:1"}],
         "ratings": [{"stars": 4, "by": "a"}, {"stars": 5, "by": "b"}],
         "flags": [{"on": false, "name": "x"}, {"on": true, "name": "y"}]}}
        """#)

    struct Identified: Decodable {
        enum CodingKeys: String, CodingKey {
            case isbn13 = "volumeInfo.industryIdentifiers[type=ISBN_13].identifier"
            case isbn10 = "volumeInfo.industryIdentifiers.[type=ISBN_10].identifier"
            case missing = "volumeInfo.industryIdentifiers[type=ASIN].identifier"
            case firstType = "volumeInfo.industryIdentifiers.first.type"
            case lastType = "volumeInfo.industryIdentifiers.last.type"
            case secondType = "volumeInfo.industryIdentifiers.1.type"
            case outOfRange = "volumeInfo.industryIdentifiers.7.type"
            case fiveStars = "volumeInfo.ratings[stars=5].by"
            case switchedOn = "volumeInfo.flags[on=true].name"
        }
        var isbn13: String
        var isbn10: String
        var missing: String?
        var firstType: String
        var lastType: String
        var secondType: String
        var outOfRange: String?
        var fiveStars: String
        var switchedOn: String
    }

    @Test func indexFirstLastAndFiltersSelectElements() throws {
        let value = try PathDecoder().decode(Identified.self, from: identifiers)
        #expect(value.isbn13 == "9781498765428")
        #expect(value.isbn10 == "1498765424")
        #expect(value.missing == nil)
        #expect(value.firstType == "ISBN_10")
        #expect(value.lastType == "OTHER")
        #expect(value.secondType == "ISBN_13")
        #expect(value.outOfRange == nil)
        #expect(value.fiveStars == "b")
        #expect(value.switchedOn == "y")
    }

    @Test func filterAsTheLastStepDecodesTheWholeElement() throws {
        struct Identifier: Decodable, Equatable {
            var type: String
            var identifier: String
        }
        let element = try PathDecoder().decode(
            Identifier.self, from: identifiers, at: "volumeInfo.industryIdentifiers[type=OTHER]")
        #expect(element == Identifier(type: "OTHER", identifier: "PKEY:1"))
    }

    @Test func aMissingRequiredElementNamesTheFilter() {
        let failure = #expect(throws: DecodingFailure.self) {
            try PathDecoder().decode(
                String.self, from: identifiers, at: "volumeInfo.industryIdentifiers[type=ASIN].identifier")
        }
        #expect(failure?.path == "volumeInfo.industryIdentifiers[type=ASIN].identifier")
        #expect(failure?.message.contains(#"no element with type == "ASIN""#) == true)
    }

    @Test func filtersSkipNullAndNonObjectElements() throws {
        let data = json(#"{"list": [null, 3, "x", [1], {"k": "v", "n": 1}]}"#)
        #expect(try PathDecoder().decode(Int.self, from: data, at: "list[k=v].n") == 1)
    }

    @Test func anIndexOutOfRangeThrowsWithTheArraySize() {
        let failure = #expect(throws: DecodingFailure.self) {
            try PathDecoder().decode(String.self, from: json(#"{"a": [1, 2]}"#), at: "a.5")
        }
        #expect(failure?.message.contains("index 5 is out of range (the array has 2 elements)") == true)
    }

    @Test func aKeyStepOnAnArrayIsATypeMismatch() {
        let failure = #expect(throws: DecodingFailure.self) {
            try PathDecoder().decode(String.self, from: json(#"{"a": [{"b": 1}]}"#), at: "a.b")
        }
        #expect(failure?.code == .typeMismatch)
        #expect(failure?.message.hasPrefix("expected object, found array") == true)
    }
}
