import Decoding
import Foundation
import Testing

@Suite struct ErrorMessageTests {
    struct Item: Decodable {
        enum CodingKeys: String, CodingKey { case title = "volumeInfo.title" }
        var title: String
    }

    struct Page: Decodable {
        var items: [Item]
    }

    @Test func nullInTheFourthItemReadsAsOneLine() throws {
        let data = json(
            #"{"items": [{"volumeInfo": {"title": "a"}}, {"volumeInfo": {"title": "b"}}, {"volumeInfo": {"title": "c"}}, {"volumeInfo": {"title": null}}]}"#
        )
        let failure = try #require(
            #expect(throws: DecodingFailure.self) { try PathDecoder().decode(Page.self, from: data) })
        #expect(failure.description == "items[3].volumeInfo.title: expected String, found null")
        #expect(failure.path == "items[3].volumeInfo.title")
        #expect(failure.code == .nullValue)
        guard case .valueNotFound(let type, let context)? = failure.underlying else {
            Issue.record("expected the underlying valueNotFound, got \(String(describing: failure.underlying))")
            return
        }
        #expect(ObjectIdentifier(type) == ObjectIdentifier(String.self))
        #expect(context.codingPath.map(\.stringValue) == ["items", "Index 3", "volumeInfo", "title"])
        #expect(!failure.description.contains("\n"))
    }

    @Test(arguments: [
        (#"{"items": [{"volumeInfo": {"title": 5}}]}"#, "items[0].volumeInfo.title: expected String, found number"),
        (#"{"items": [{"volumeInfo": {"title": []}}]}"#, "items[0].volumeInfo.title: expected String, found array"),
        (#"{"items": [{"volumeInfo": {"title": {}}}]}"#, "items[0].volumeInfo.title: expected String, found object"),
        (#"{"items": {}}"#, "items: expected array, found object"),
        (#"{"items": [[]]}"#, "items[0]: expected object, found array"),
        (#"{}"#, "items: required value is missing"),
    ])
    func wrongShapesNameThePathAndBothTypes(_ text: String, _ expected: String) {
        let failure = #expect(throws: DecodingFailure.self) { try PathDecoder().decode(Page.self, from: json(text)) }
        #expect(failure?.description == expected)
    }

    @Test func malformedJSONGivesLineAndColumn() {
        let failure = #expect(throws: DecodingFailure.self) {
            try PathDecoder().decode(Page.self, from: json("{\n  \"items\": [\n    {\"a\": 1,}\n    x\n]}"))
        }
        #expect(failure?.code == .invalidJSON)
        #expect(failure?.description == "invalid JSON at line 3, column 13: trailing comma in object")
        #expect(failure?.underlying != nil)
    }

    @Test func emptyDataIsInvalidJSON() {
        let failure = #expect(throws: DecodingFailure.self) { try PathDecoder().decode(Page.self, from: Data()) }
        #expect(failure?.code == .invalidJSON)
        #expect(failure?.description == "invalid JSON at line 1, column 1: the data is empty")
    }

    @Test func truncatedJSONSaysWhereItEnds() {
        let failure = #expect(throws: DecodingFailure.self) {
            try PathDecoder().decode(Page.self, from: json(#"{"items": [{"volumeInfo": {"tit"#))
        }
        #expect(failure?.description == "invalid JSON at line 1, column 28: unterminated string")
    }

    @Test func errorsSurviveAsSendableValues() async throws {
        let failure = await Task.detached { () -> DecodingFailure? in
            do {
                _ = try PathDecoder().decode(Page.self, from: json("{}"))
                return nil
            } catch let failure as DecodingFailure {
                return failure
            } catch {
                return nil
            }
        }.value
        #expect(failure?.path == "items")
    }
}
