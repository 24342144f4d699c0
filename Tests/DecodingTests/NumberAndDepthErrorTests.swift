import Decoding
import Foundation
import Testing

/// Foundation reports a number that does not fit its type, and data nested too deep, as
/// "not valid JSON" at the root; ``PathDecoder`` names the path instead.
@Suite struct NumberAndDepthErrorTests {
    struct Item: Decodable {
        var n: Int
    }

    struct Page: Decodable {
        var items: [Item]
    }

    struct Wide: Decodable {
        var small: Int64?
        var unsigned: UInt64?
        var real: Double?
        var single: Float?
    }

    @Test func aFractionInAnIntNamesItsPathAndNumber() throws {
        let failure = try #require(throws: DecodingFailure.self) {
            try PathDecoder().decode(Page.self, from: json(#"{"items": [{"n": 1}, {"n": 2}, {"n": 1.5}]}"#))
        }
        #expect(failure.description == "items[2].n: the number 1.5 does not fit in Int")
        #expect(failure.code == .invalidValue)
        #expect(failure.path == "items[2].n")
    }

    @Test(arguments: [
        (#"{"small": 18446744073709551616}"#, "small: the number 18446744073709551616 does not fit in Int64"),
        (#"{"unsigned": 18446744073709551616}"#, "unsigned: the number 18446744073709551616 does not fit in UInt64"),
        (#"{"unsigned": -1}"#, "unsigned: the number -1 does not fit in UInt64"),
        (#"{"real": 1e400}"#, "real: the number 1e400 does not fit in Double"),
        (#"{"single": 1e300}"#, "single: the number 1e300 does not fit in Float"),
    ])
    func numbersThatDoNotFitNameTheirPath(_ text: String, _ expected: String) throws {
        let failure = try #require(throws: DecodingFailure.self) {
            try PathDecoder().decode(Wide.self, from: json(text))
        }
        #expect(failure.description == expected)
        #expect(failure.code == .invalidValue)
    }

    @Test func aNumberReadThroughAPathKeyNamesTheWholePath() throws {
        struct Book: Decodable {
            enum CodingKeys: String, CodingKey {
                case pages = "volumeInfo.pageCount"
            }
            var pages: Int
        }
        let failure = try #require(throws: DecodingFailure.self) {
            try PathDecoder().decode([Book].self, from: json(#"[{"volumeInfo": {"pageCount": 2.5}}]"#))
        }
        #expect(failure.description == "[0].volumeInfo.pageCount: the number 2.5 does not fit in Int")
    }

    @Test func anElementOfAnIntArrayNamesItsIndex() throws {
        struct Scores: Decodable {
            var scores: [Int]
        }
        let failure = try #require(throws: DecodingFailure.self) {
            try PathDecoder().decode(Scores.self, from: json(#"{"scores": [1, 2, 3e30]}"#))
        }
        #expect(failure.description == "scores[2]: the number 3e30 does not fit in Int")
    }

    @Test func aNumberAtARootOrAPathNamesTheNumber() throws {
        let atRoot = try #require(throws: DecodingFailure.self) {
            try PathDecoder().decode(Int.self, from: json("1.5"))
        }
        #expect(atRoot.description == "the number 1.5 does not fit in Int")
        let atPath = try #require(throws: DecodingFailure.self) {
            try PathDecoder().decode(Int.self, from: json(#"{"a": {"b": 1e400}}"#), at: "a.b")
        }
        #expect(atPath.description == "a.b: the number 1e400 does not fit in Int")
        #expect(atPath.code == .invalidValue)
    }

    @Test func numbersThatFitStillDecode() throws {
        let value = try PathDecoder().decode(
            Wide.self, from: json(#"{"small": -9223372036854775808, "unsigned": 18446744073709551615, "real": 1e300}"#))
        #expect(value.small == .min)
        #expect(value.unsigned == .max)
        #expect(value.real == 1e300)
    }

    @Test func nestingDeeperThanFoundationAllowsNamesTheDepthAndPath() throws {
        let text = #"{"a": "# + String(repeating: "[", count: 600) + String(repeating: "]", count: 600) + "}"
        for decoder in [PathDecoder(), PathDecoder { $0.isStrict = true }] {
            let failure = try #require(throws: DecodingFailure.self) {
                try decoder.decode(JSONTestSuiteTests.AnyJSON.self, from: json(text))
            }
            #expect(failure.message == "nested deeper than 512 levels")
            #expect(failure.code == .invalidValue)
            #expect(failure.path == "a" + String(repeating: "[0]", count: 511))
        }
    }

    @Test func nestingOfExactlyTheLimitDecodes() throws {
        let text = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        for decoder in [PathDecoder(), PathDecoder { $0.isStrict = true }] {
            #expect(throws: Never.self) { try decoder.decode(JSONTestSuiteTests.AnyJSON.self, from: json(text)) }
        }
    }

    @Test func malformedDeepDataIsInvalidJSONNotTooDeep() throws {
        let text = String(repeating: "[", count: 1_000)
        let failure = try #require(throws: DecodingFailure.self) {
            try PathDecoder().decode(JSONTestSuiteTests.AnyJSON.self, from: json(text))
        }
        #expect(failure.code == .invalidJSON)
    }

    @Test func codesMatchInCatchAndDescribeThemselvesByName() {
        do {
            _ = try PathDecoder().decode(Item.self, from: json(#"{"n": 0.5}"#))
            Issue.record("decoded a fraction as Int")
        } catch DecodingFailure.Code.invalidValue {
            // expected
        } catch {
            Issue.record("unexpected \(error)")
        }
        #expect(DecodingFailure.Code.typeMismatch.description == "typeMismatch")
        #expect(DecodingFailure.Code.invalidJSON.description == "invalidJSON")
        #expect(!(DecodingFailure.Code.nullValue ~= CocoaError(.fileNoSuchFile)))
    }
}
