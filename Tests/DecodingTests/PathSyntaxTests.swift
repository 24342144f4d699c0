import Foundation
import Testing

@testable import Decoding

@Suite struct PathSyntaxTests {
    private func steps(_ text: String) throws -> [String] {
        try PathExpression(parsing: text).steps.map(\.text)
    }

    @Test func dotsSeparateKeySteps() throws {
        #expect(try steps("volumeInfo.imageLinks.smallThumbnail") == ["volumeInfo", "imageLinks", "smallThumbnail"])
    }

    @Test func bracketFilterWorksWithAndWithoutADot() throws {
        let shorthand = try PathExpression(parsing: "industryIdentifiers[type=ISBN_13].identifier")
        let dotted = try PathExpression(parsing: "industryIdentifiers.[type=ISBN_13].identifier")
        #expect(shorthand.steps.map(\.text) == dotted.steps.map(\.text))
        #expect(shorthand.prefixes == dotted.prefixes)
        #expect(shorthand.steps[1].arrayStep == .filter(field: AnyCodingKey("type"), value: "ISBN_13"))
        #expect(shorthand.steps[1].key == nil)
    }

    @Test func digitsFirstAndLastAreArrayStepsThatAreAlsoKeys() throws {
        let path = try PathExpression(parsing: "results.0.first.last")
        #expect(path.steps[1].arrayStep == .index(0))
        #expect(path.steps[1].key?.stringValue == "0")
        #expect(path.steps[2].arrayStep == .first)
        #expect(path.steps[3].arrayStep == .last)
    }

    @Test func backslashEscapesTheSeparatorAndBrackets() throws {
        let path = try PathExpression(parsing: #"meta\.version.a\[b\]\\c"#)
        #expect(path.steps.map { $0.key?.stringValue } == ["meta.version", "a[b]\\c"])
        #expect(path.steps.allSatisfy { $0.arrayStep == nil })
    }

    @Test func anEscapedFirstIsOnlyAKey() throws {
        let path = try PathExpression(parsing: #"items.\first"#)
        #expect(path.steps[1].key?.stringValue == "first")
        #expect(path.steps[1].arrayStep == nil)
        #expect(path.prefixes[1] != (try PathExpression(parsing: "items.first")).prefixes[1])
    }

    @Test func bracketIndexesAreAccepted() throws {
        let path = try PathExpression(parsing: "results[0].title")
        #expect(path.steps[1].arrayStep == .index(0))
        #expect(path.steps[1].key == nil)
    }

    @Test(arguments: ["", ".a", "a.", "a..b", "a[type=x", "a[=x]", "a[oops]", #"a\"#, "a[x=1]b"])
    func malformedPathsAreRejected(_ text: String) {
        #expect(throws: PathSyntaxError.self) { try PathExpression(parsing: text) }
    }

    @Test func malformedPathInCodingKeysThrowsInvalidPath() {
        struct Broken: Decodable {
            enum CodingKeys: String, CodingKey { case value = "a..b" }
            var value: Int
        }
        let failure = #expect(throws: DecodingFailure.self) {
            try PathDecoder().decode(Broken.self, from: json(#"{"a": {"b": 1}}"#))
        }
        #expect(failure?.code == .invalidPath)
        #expect(failure?.message.contains("empty step") == true)
    }

    @Test func malformedPathArgumentThrowsInvalidPath() {
        let failure = #expect(throws: DecodingFailure.self) {
            try PathDecoder().decode(Int.self, from: json("{}"), at: "a[")
        }
        #expect(failure?.code == .invalidPath)
    }

    @Test func equalPrefixesShareANumberAcrossPaths() throws {
        let cache = PathCache.shared
        let title = try cache.expression(for: "volumeInfo.title").get()
        let publisher = try cache.expression(for: "volumeInfo.publisher").get()
        #expect(title.prefixIDs[0] == publisher.prefixIDs[0])
        #expect(title.prefixIDs[1] != publisher.prefixIDs[1])
    }

    @Test func plainKeysSkipTheParser() {
        #expect(PathExpression.isPlainKey("title"))
        #expect(PathExpression.isPlainKey("first"))
        #expect(!PathExpression.isPlainKey("a.b"))
        #expect(!PathExpression.isPlainKey("a[x=1]"))
        #expect(!PathExpression.isPlainKey(#"a\b"#))
    }
}
