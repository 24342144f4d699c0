import Decoding
import Foundation
import Testing

@Suite struct LenientDecodingTests {
    struct Shelf: Decodable {
        enum CodingKeys: String, CodingKey {
            case books = "shelf.books"
            case tags
            case rating = "meta.rating"
            case visible
        }
        @LossyArray var books: [String]
        @DefaultEmpty var tags: [String]
        @DefaultValue<Defaults.Zero<Double>> var rating: Double
        @DefaultValue<Defaults.True> var visible: Bool
    }

    @Test func lossyArraySkipsBadElementsAndReportsEachWithItsPath() throws {
        let (shelf, report) = try PathDecoder().decodeWithReport(
            Shelf.self,
            from: json(
                #"{"shelf": {"books": ["a", null, 3, "d", {"x": 1}]}, "tags": ["t"], "meta": {"rating": 4.5}, "visible": false}"#
            ))
        #expect(shelf.books == ["a", "d"])
        #expect(shelf.tags == ["t"])
        #expect(shelf.rating == 4.5)
        #expect(!shelf.visible)
        #expect(report.entries.map(\.path) == ["shelf.books[1]", "shelf.books[2]", "shelf.books[4]"])
        #expect(report.entries.allSatisfy { $0.action == .skippedElement })
        #expect(report.entries[0].reason == "shelf.books[1]: expected String, found null")
        #expect(report.entries[1].reason == "shelf.books[2]: expected String, found number")
    }

    @Test func defaultsFillMissingAndNullValuesAndAreReported() throws {
        let (shelf, report) = try PathDecoder().decodeWithReport(
            Shelf.self, from: json(#"{"shelf": null, "tags": null, "meta": {}}"#))
        #expect(shelf.books.isEmpty)
        #expect(shelf.tags.isEmpty)
        #expect(shelf.rating == 0)
        #expect(shelf.visible)
        #expect(
            report.entries == [
                .init(path: "shelf.books", action: .usedDefault, reason: "key is missing"),
                .init(path: "tags", action: .usedDefault, reason: "value is null"),
                .init(path: "meta.rating", action: .usedDefault, reason: "key is missing"),
                .init(path: "visible", action: .usedDefault, reason: "key is missing"),
            ])
        #expect(report.description.split(separator: "\n").count == 4)
    }

    @Test func aDefaultNeverHidesAWrongType() {
        let failure = #expect(throws: DecodingFailure.self) {
            try PathDecoder().decode(Shelf.self, from: json(#"{"meta": {"rating": "high"}}"#))
        }
        #expect(failure?.description == "meta.rating: expected Double, found string")
    }

    @Test func wrappersAlsoWorkWithAPlainJSONDecoder() throws {
        struct Flat: Decodable {
            @LossyArray var values: [Int]
            @DefaultEmpty var names: [String]
        }
        let flat = try JSONDecoder().decode(Flat.self, from: json(#"{"values": [1, "x", 3]}"#))
        #expect(flat.values == [1, 3])
        #expect(flat.names.isEmpty)
    }

    @Test func plainDecodeDropsTheReportButStillSkips() throws {
        let shelf = try PathDecoder().decode(Shelf.self, from: json(#"{"shelf": {"books": [1, "b"]}}"#))
        #expect(shelf.books == ["b"])
    }

    struct Scalars: Decodable {
        @LosslessValue var id: String
        @LosslessValue var count: Int
        @LosslessValue var latitude: Double?
        @LosslessValue var isPublic: Bool
    }

    @Test func losslessValuesAcceptStringsAndNumbers() throws {
        let asNumbers = try PathDecoder().decode(
            Scalars.self, from: json(#"{"id": 42, "count": 3, "latitude": 37.5, "isPublic": 1}"#))
        let asStrings = try PathDecoder().decode(
            Scalars.self, from: json(#"{"id": "42", "count": "3", "latitude": "37.5", "isPublic": "true"}"#))
        for value in [asNumbers, asStrings] {
            #expect(value.id == "42")
            #expect(value.count == 3)
            #expect(value.latitude == 37.5)
            #expect(value.isPublic)
        }
    }

    @Test func losslessOptionalIsNilWhenMissingAndConversionsAreReported() throws {
        let (value, report) = try PathDecoder().decodeWithReport(
            Scalars.self, from: json(#"{"id": 7, "count": "1018", "isPublic": false}"#))
        #expect(value.latitude == nil)
        #expect(value.count == 1018)
        #expect(
            report.entries == [
                .init(path: "id", action: .convertedType, reason: #"number "7" read as String"#),
                .init(path: "count", action: .convertedType, reason: #"string "1018" read as Int"#),
            ])
    }

    @Test func losslessValueRejectsTextThatIsNotANumber() {
        let failure = #expect(throws: DecodingFailure.self) {
            try PathDecoder().decode(Scalars.self, from: json(#"{"id": 1, "count": "many", "isPublic": true}"#))
        }
        #expect(failure?.description == #"count: expected Int, found string "many""#)
    }

    @Test(
        arguments: [
            ("1862", 1862, nil, nil, PartialDate.Precision.year, 1862.0),
            ("2016-10", 2016, 10, nil, .month, 2016.75),
            ("2016-10-14", 2016, 10, 14, .day, 2016.79),
        ] as [(String, Int, Int?, Int?, PartialDate.Precision, Double)])
    func partialDatesKeepTheirPrecision(
        _ text: String, _ year: Int, _ month: Int?, _ day: Int?, _ precision: PartialDate.Precision, _ approx: Double
    ) throws {
        let date = try PartialDate(text)
        #expect(date.year == year)
        #expect(date.month == month)
        #expect(date.day == day)
        #expect(date.precision == precision)
        #expect(date.description == text)
        let calendarYear = 1970 + date.date.timeIntervalSince1970 / (365.2425 * 86_400)
        #expect(abs(calendarYear - approx) < 0.05)
    }

    @Test func partialDateReadsFullISO8601WithOffsetsAndFractions() throws {
        let utc = try PartialDate("2016-10-14T09:30:00Z")
        #expect(utc.precision == .instant)
        #expect(utc.date == Date(timeIntervalSince1970: 1_476_437_400))
        let offset = try PartialDate("2016-10-14T11:30:00.250+02:00")
        #expect(offset.date.timeIntervalSince1970 == 1_476_437_400.25)
        #expect(try PartialDate("2016-10") < PartialDate("2016-10-14"))
        #expect(try PartialDate("2016-10-01") != PartialDate("2016-10"))
    }

    @Test(arguments: ["", "186", "2016-13", "2016-02-30", "2016-10-14T25:00Z", "2016/10/14", "2016-10-14Tjunk", "abcd"])
    func partialDateRejectsWhatIsNotADate(_ text: String) {
        #expect(throws: DecodingFailure.self) { try PartialDate(text) }
    }

    @Test func partialDateInJSONThrowsAReadableError() {
        struct Dated: Decodable { var published: PartialDate }
        let failure = #expect(throws: DecodingFailure.self) {
            try PathDecoder().decode(Dated.self, from: json(#"{"published": "sometime"}"#))
        }
        #expect(
            failure?.description == #"published: expected a date such as 1862, 2016-10 or 2016-10-14, found "sometime""#
        )
    }

    @Test func leapDayIsAcceptedOnlyInLeapYears() throws {
        #expect(try PartialDate("2016-02-29").day == 29)
        #expect(throws: DecodingFailure.self) { try PartialDate("2015-02-29") }
    }

    enum Uppercased: DecodingTransform {
        struct Empty: Error {}
        static func transform(_ input: String) throws -> String {
            guard !input.isEmpty else { throw Empty() }
            return input.uppercased()
        }
    }

    @Test func transformsRunWhileDecodingAndTheirErrorsCarryThePath() throws {
        struct Shout: Decodable {
            enum CodingKeys: String, CodingKey {
                case word = "a.word"
                case authors = "a.authors"
            }
            @Transformed<Uppercased> var word: String
            @TransformedIfPresent<JoinedStrings> var authors: String?
        }
        let shout = try PathDecoder().decode(Shout.self, from: json(#"{"a": {"word": "hi", "authors": ["A", "B"]}}"#))
        #expect(shout.word == "HI")
        #expect(shout.authors == "A, B")
        let failure = #expect(throws: DecodingFailure.self) {
            try PathDecoder().decode(Shout.self, from: json(#"{"a": {"word": ""}}"#))
        }
        #expect(failure?.path == "a.word")
        #expect(failure?.message.contains("Uppercased failed") == true)
        let missing = #expect(throws: DecodingFailure.self) {
            try PathDecoder().decode(Shout.self, from: json(#"{"a": {}}"#))
        }
        #expect(missing?.description == "a.word: required value is missing")
    }
}
