import Foundation
import TestSupport
import Testing

@testable import Decoding

/// Types that probe (`try?` on every kind of container and value, optionals, the lenient
/// helpers converting and skipping) decoded both ways: the same values, the same errors, the
/// same report entries; and, where the fast path does not give up for a reason of its own, no
/// second route.
@Suite struct ProbingDifferentialTests {
    /// Decodes `data` both ways with a report and compares values, errors and reports.
    @discardableResult
    static func compareWithReport<T: Decodable & Equatable>(
        _ type: T.Type, _ data: Data, sourceLocation: SourceLocation = #_sourceLocation
    ) -> Differential.FastOutcome {
        let outcome = Differential.compare(type, data, sourceLocation: sourceLocation)
        var foundation = PathDecoder()
        foundation.route = .foundationOnly
        let expected = Result { () throws(DecodingFailure) in try foundation.decodeWithReport(type, from: data) }
        let actual = Result { () throws(DecodingFailure) in try PathDecoder().decodeWithReport(type, from: data) }
        switch (expected, actual) {
        case (.success(let want), .success(let got)):
            #expect(got.value == want.value, sourceLocation: sourceLocation)
            #expect(got.report == want.report, sourceLocation: sourceLocation)
        case (.failure(let want), .failure(let got)):
            Differential.expectSameFailure(got, want, sourceLocation: sourceLocation)
        default:
            Issue.record("the two ways disagree: \(actual) against \(expected)", sourceLocation: sourceLocation)
        }
        return outcome
    }

    /// Every probing type on `data`, both ways.
    static func compareProbingTypes(_ data: Data, sourceLocation: SourceLocation = #_sourceLocation) {
        Differential.compare(AnyJSON.self, data, sourceLocation: sourceLocation)
        Differential.compare(Prober.self, data, sourceLocation: sourceLocation)
        Differential.compare(OptionalProbe.self, data, sourceLocation: sourceLocation)
        Differential.compare([OptionalProbe].self, data, sourceLocation: sourceLocation)
        Differential.compare([String: AnyJSON].self, data, sourceLocation: sourceLocation)
        compareWithReport(LenientProbe.self, data, sourceLocation: sourceLocation)
        compareWithReport([LenientProbe].self, data, sourceLocation: sourceLocation)
        compareWithReport(LossyArray<LenientProbe.Item>.self, data, sourceLocation: sourceLocation)
    }

    @Test func theCorpusDecodesTheSameBothWaysThroughProbingTypes() throws {
        #expect(FastPathDifferentialTests.corpus.count == 318)
        for file in FastPathDifferentialTests.corpus {
            Self.compareProbingTypes(try Data(contentsOf: file))
        }
    }

    static let recorded = FastPathDifferentialTests.googleBooks + FastPathDifferentialTests.others

    @Test(arguments: recorded)
    func recordedResponsesDecodeTheSameBothWaysThroughProbingTypes(_ name: String) throws {
        let data = try Fixtures.data(name)
        Self.compareProbingTypes(data)
        #expect(Differential.compare(AnyJSON.self, data) == .decoded)
        #expect(Differential.compare(Prober.self, data) == .decoded)
        Differential.compare([AnyJSON]?.self, data, at: "items")
        Differential.compare([Prober]?.self, data, at: "photos.photo")
        Differential.compare(Prober?.self, data, at: "results.first")
    }

    @Test func randomDocumentsDecodeTheSameBothWaysThroughProbingTypes() {
        var generator = LinearCongruential(seed: 41)
        var decoded = 0
        for _ in 0..<120 {
            let data = json(generator.document(depth: 3))
            Self.compareProbingTypes(data)
            if Differential.compare(Prober.self, data) == .decoded { decoded += 1 }
        }
        // Most documents have no number the fast path leaves to `JSONDecoder`.
        #expect(decoded > 60)
    }

    @Test func lenientHelpersConvertAndSkipOnTheFastPathWithTheSameReport() {
        let page = #"""
            {"id": 12, "count": "7", "ratio": "0.25", "flag": "true", "numbers": [1, "two", 3.5, null, 4],
             "names": ["a", 1, null, "b"], "total": null, "tags": null,
             "items": [{"name": "x", "info": {"size": "3"}}, {"name": 1}, {"info": {}}, "y", {"name": "z"}]}
            """#
        #expect(Self.compareWithReport(LenientProbe.self, json(page)) == .decoded)
        #expect(Self.compareWithReport([LenientProbe].self, json("[\(page), \(page)]")) == .decoded)
        #expect(Self.compareWithReport(LenientProbe.self, json(#"{"id": "abc"}"#)) == .decoded)
        #expect(Self.compareWithReport(LenientProbe.self, json(#"{"id": true, "count": "x"}"#)) == .failed)
        #expect(Self.compareWithReport(LenientProbe.self, json(#"{"id": [1]}"#)) == .failed)
        #expect(Self.compareWithReport(LenientProbe.self, json(#"{"total": 1}"#)) == .failed)
        #expect(Self.compareWithReport(LenientProbe.self, json(#"{"id": 1, "numbers": {}}"#)) == .failed)
        #expect(Self.compareWithReport(Photo.self, json(#"{"id": 1, "title": "t", "latitude": "1.5"}"#)) == .decoded)
    }

    @Test func badInputGivesTheSameValueOrError() throws {
        let page = try Fixtures.data("googlebooks/volumes_dawn_page1_30_items.json")
        // Truncated text.
        for length in stride(from: 0, to: page.count, by: max(1, page.count / 16)) {
            Self.compareProbingTypes(page.prefix(length))
        }
        // A lone surrogate, nesting past the limit, numbers out of range, a duplicate key.
        let inputs = [
            #"{"id": "\uD800", "names": ["\uDC00"]}"#,
            String(repeating: "[", count: 600) + String(repeating: "]", count: 600),
            String(repeating: #"{"nested":"#, count: 600) + "1" + String(repeating: "}", count: 600),
            // One bad member per object: `JSONDecoder` itself visits members in an order of its own.
            #"{"id": 1, "count": 1e400}"#,
            #"{"numbers": [1e400, -1e400, 1e-400, 18446744073709551616]}"#,
            #"{"number": 9223372036854775808, "list": [300, -1, 1.5, 2.0, -0]}"#,
            #"{"id": 1, "id": 2, "numbers": [1]}"#,
            #"[{"name": "a", "name": "b"}]"#,
        ]
        for input in inputs { Self.compareProbingTypes(json(input)) }
    }

    /// The issue's promise: a type that probes takes no second route. Each decoding here goes
    /// through errors that the types catch, and `PathDecoder` decodes each once.
    @Test func probingTypesNeverTakeTheSecondRoute() throws {
        let documents = [
            try Fixtures.data("googlebooks/volumes_dawn_page1_30_items.json"),
            try Fixtures.data("flickr/photos_with_geo_extras_2014.json"),
            try Fixtures.data("tmdb/search_movie_fight_club_page1.json"),
            json(#"[1, -2, 73.433, "x", true, null, {"a": [1.5, "2"]}, [], {}]"#),
            json(#"{"id": 12, "count": "7", "numbers": [1, "two", 3.5], "items": [{"name": 1}, "y"]}"#),
        ]
        let counter = SecondRouteCounter()
        try SecondRouteCounter.$current.withValue(counter) {
            for data in documents {
                _ = try PathDecoder().decode(AnyJSON.self, from: data)
                _ = try PathDecoder().decode(Prober.self, from: data)
                guard data.first == UInt8(ascii: "{") else { continue }
                _ = try PathDecoder().decode(OptionalProbe?.self, from: data, at: "items.first")
                _ = try PathDecoder().decodeWithReport(LossyArray<LenientProbe>?.self, from: data, at: "items")
            }
            _ = try PathDecoder().decodeWithReport(LenientProbe.self, from: documents[4])
            _ = try PathDecoder().decode(Photo.self, from: json(#"{"id": 1, "title": "t", "latitude": "1.5"}"#))
        }
        #expect(counter.recorded == [])
        // Numbers of every shape are read on the fast path, `try?` or not.
        SecondRouteCounter.$current.withValue(counter) {
            let numbers = json("[1e2, 1.0, -0, -0.0, 1e-400, 12345678901234567890, 9007199254740993.5]")
            #expect(throws: Never.self) { try PathDecoder().decode(AnyJSON.self, from: numbers) }
            let integers = json("[1e2, 1.0, -0, -0.0, 1e-400, 9007199254740993.5]")
            #expect(throws: Never.self) { try PathDecoder().decode([LosslessValue<Int>?].self, from: integers) }
            #expect(throws: Never.self) { try PathDecoder().decode([Prober].self, from: numbers) }
            // Numbers no type here can hold: the errors are caught, or end the decoding at once.
            _ = try? PathDecoder().decode(AnyJSON.self, from: json("[1e400, 0e1]"))
            _ = try? PathDecoder().decode([LosslessValue<Int>?].self, from: json("[1e400, 0e1]"))
        }
        #expect(counter.recorded == [])
        // And the counter counts: a duplicate key takes the second route.
        SecondRouteCounter.$current.withValue(counter) {
            _ = try? PathDecoder().decode(AnyJSON.self, from: json(#"{"a": 1, "a": 2}"#))
        }
        #expect(counter.recorded == [.duplicateKey])
    }
}

extension LinearCongruential {
    /// A random JSON document: objects with keys the probing types read, arrays, and scalars of
    /// every kind, strings that hold numbers and booleans, and numbers of every shape.
    mutating func document(depth: Int) -> String {
        let keys = [
            "id", "count", "ratio", "flag", "numbers", "names", "total", "label", "tags", "items", "name", "info",
            "size", "number", "text", "list", "nested", "a.b", "é",
        ]
        switch next(depth > 0 ? 10 : 6) {
        case 0: return ["null", "true", "false"][next(3)]
        case 1:
            return ["\"7\"", "\"-3\"", "\"0.25\"", "\"true\"", "\"x\"", "\"\"", "\"http://a.b/c\"", "\"a b\""][next(8)]
        case 2: return String(next(600) - 300)
        case 3: return ["1.5", "2.0", "-0", "-0.0", "1e2", "300", "18446744073709551616", "0.1"][next(8)]
        case 4: return numberText()
        case 5: return "\"s\(next(100))\""
        case 6, 7:
            let count = next(5)
            return "[" + (0..<count).map { _ in document(depth: depth - 1) }.joined(separator: ",") + "]"
        default:
            var chosen: [String] = []
            for _ in 0..<next(6) {
                let key = keys[next(keys.count)]
                if !chosen.contains(key) { chosen.append(key) }
            }
            return "{" + chosen.map { "\"\($0)\":" + document(depth: depth - 1) }.joined(separator: ",") + "}"
        }
    }
}
