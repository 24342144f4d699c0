import Decoding
import Foundation
import Testing

/// The one walk through a path: nested keys, array indices and filters, and what a missing
/// or null value at each step gives (nil for an optional, an error naming the path otherwise).
@Suite struct PathWalkTests {
    let document = json(
        #"""
        {"shelf": {"rows": [
            {"label": "top", "books": [{"id": "a", "title": "Dune"}, {"id": "b", "title": "Emma"}]},
            null,
            {"label": "low", "books": [], "note": null}]},
         "empty": null}
        """#)

    @Test(arguments: [
        ("shelf.rows[0].label", "top"),
        ("shelf.rows.first.label", "top"),
        ("shelf.rows.last.label", "low"),
        ("shelf.rows[label=top].books[1].title", "Emma"),
        ("shelf.rows[label=top].books[id=a].title", "Dune"),
        ("shelf.rows[0].books.last.id", "b"),
    ])
    func keysIndicesAndFiltersReachTheValue(_ path: String, _ expected: String) throws {
        #expect(try PathDecoder().decode(String.self, from: document, at: path) == expected)
    }

    @Test(arguments: [
        "missing.title",  // a missing first step
        "empty.title",  // a null first step
        "shelf.missing.title",  // a missing middle step
        "shelf.rows[1].label",  // a null element
        "shelf.rows[7].label",  // an index out of range
        "shelf.rows[label=side].label",  // a filter that matches nothing
        "shelf.rows[2].books.first.title",  // an empty array
        "shelf.rows[2].note.text",  // a null object below an array
    ])
    func aMissingOrNullStepGivesNilForAnOptional(_ path: String) throws {
        #expect(try PathDecoder().decode(String?.self, from: document, at: path) == nil)
    }

    @Test(arguments: [
        ("missing.title", "missing.title: required value is missing: no \"missing\""),
        ("empty.title", "empty.title: required value is missing: \"empty\" is null"),
        ("shelf.rows[1].label", "shelf.rows[1].label: required value is missing: the element is null in shelf.rows"),
        (
            "shelf.rows[7].label",
            "shelf.rows[7].label: required value is missing: index 7 is out of range (the array has 3 elements) in shelf.rows"
        ),
        (
            "shelf.rows[label=side].label",
            "shelf.rows[label=side].label: required value is missing: no element with label == \"side\" in shelf.rows"
        ),
        (
            "shelf.rows[2].books.first.title",
            "shelf.rows[2].books.first.title: required value is missing: the array is empty in shelf.rows[2].books"
        ),
    ])
    func aMissingRequiredStepNamesTheWholePath(_ path: String, _ expected: String) throws {
        let failure = try #require(throws: DecodingFailure.self) {
            try PathDecoder().decode(String.self, from: document, at: path)
        }
        #expect(failure.description == expected)
        #expect(failure.code == .missingValue)
    }

    @Test func aStepThroughAValueOfAnotherTypeIsATypeMismatchEvenForAnOptional() throws {
        let failure = try #require(throws: DecodingFailure.self) {
            try PathDecoder().decode(String?.self, from: document, at: "shelf.rows[2].label.missing")
        }
        #expect(failure.description == "shelf.rows[2].label: expected object, found string")
        #expect(failure.code == .typeMismatch)
    }

    @Test func propertiesSharingAPrefixReadTheSameObjects() throws {
        struct Row: Decodable {
            enum CodingKeys: String, CodingKey {
                case label = "shelf.rows[label=top].label"
                case first = "shelf.rows[label=top].books.first.title"
                case second = "shelf.rows[label=top].books[id=b].title"
                case note = "shelf.rows.last.note"
                case missing = "shelf.rows.last.note.text"
            }
            var label: String
            var first: String
            var second: String
            var note: String?
            var missing: String?
        }
        let row = try PathDecoder().decode(Row.self, from: document)
        #expect(row.label == "top")
        #expect(row.first == "Dune")
        #expect(row.second == "Emma")
        #expect(row.note == nil)
        #expect(row.missing == nil)
    }

    @Test func aFilterAsTheLastStepDecodesTheMatchingElement() throws {
        struct Book: Decodable, Equatable {
            var id: String
            var title: String
        }
        let book = try PathDecoder().decode(Book.self, from: document, at: "shelf.rows[0].books[id=b]")
        #expect(book == Book(id: "b", title: "Emma"))
    }

    @Test func containsFollowsTheSameWalk() throws {
        struct Probe: Decodable {
            var found: [Bool]
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: AnyCodingKey.self)
                found = [
                    "shelf.rows[0].books[id=a]", "shelf.rows[2].note", "shelf.rows[label=top].label",
                    "shelf.rows[7]", "shelf.rows[label=side]", "shelf.missing", "empty.title",
                ].map { container.contains(path: $0) }
            }
        }
        let probe = try PathDecoder().decode(Probe.self, from: document)
        #expect(probe.found == [true, true, true, false, false, false, false])
    }

    @Test func aNestedContainerOpenedAtAPathReadsItsObject() throws {
        struct Shelf: Decodable {
            enum CodingKeys: String, CodingKey {
                case top = "shelf.rows[label=top]"
            }
            enum RowKeys: String, CodingKey {
                case label
            }
            var label: String
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                label = try container.nestedContainer(keyedBy: RowKeys.self, forKey: .top).decode(
                    String.self, forKey: .label)
            }
        }
        #expect(try PathDecoder().decode(Shelf.self, from: document).label == "top")
    }
}
