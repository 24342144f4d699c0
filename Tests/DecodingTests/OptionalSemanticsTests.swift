import Decoding
import Foundation
import Testing

@Suite struct OptionalSemanticsTests {
    struct Sparse: Decodable {
        enum CodingKeys: String, CodingKey {
            case thumbnail = "volumeInfo.imageLinks.smallThumbnail"
            case title = "volumeInfo.title"
        }
        var thumbnail: String?
        var title: String?
    }

    @Test(arguments: [
        #"{"volumeInfo": {"imageLinks": {}}}"#,
        #"{"volumeInfo": {"imageLinks": {"smallThumbnail": null}}}"#,
        #"{"volumeInfo": {"imageLinks": null}}"#,
        #"{"volumeInfo": {}}"#,
        #"{"volumeInfo": null}"#,
        #"{}"#,
    ])
    func optionalIsNilWhenTheValueOrAnyParentObjectIsMissingOrNull(_ text: String) throws {
        let value = try PathDecoder().decode(Sparse.self, from: json(text))
        #expect(value.thumbnail == nil)
        #expect(value.title == nil)
    }

    @Test func optionalStillThrowsOnAWrongType() {
        let failure = #expect(throws: DecodingFailure.self) {
            try PathDecoder().decode(Sparse.self, from: json(#"{"volumeInfo": {"imageLinks": {"smallThumbnail": 7}}}"#))
        }
        #expect(failure?.description == "volumeInfo.imageLinks.smallThumbnail: expected String, found number")
    }

    @Test func optionalThrowsWhenAParentIsNotAnObject() {
        let failure = #expect(throws: DecodingFailure.self) {
            try PathDecoder().decode(Sparse.self, from: json(#"{"volumeInfo": "oops"}"#))
        }
        #expect(failure?.code == .typeMismatch)
        #expect(failure?.path == "volumeInfo")
    }

    struct Required: Decodable {
        enum CodingKeys: String, CodingKey { case thumbnail = "volumeInfo.imageLinks.smallThumbnail" }
        var thumbnail: String
    }

    @Test func missingRequiredValueNamesTheFullPath() {
        let failure = #expect(throws: DecodingFailure.self) {
            try PathDecoder().decode([Required].self, from: json(#"[{"volumeInfo": {"imageLinks": {}}}]"#))
        }
        #expect(failure?.code == .missingValue)
        #expect(failure?.description == "[0].volumeInfo.imageLinks.smallThumbnail: required value is missing")
    }

    @Test func missingParentOfRequiredValueNamesTheFullPathAndTheMissingStep() {
        let failure = #expect(throws: DecodingFailure.self) {
            try PathDecoder().decode([Required].self, from: json(#"[{"volumeInfo": {}}]"#))
        }
        #expect(failure?.path == "[0].volumeInfo.imageLinks.smallThumbnail")
        #expect(failure?.message == #"required value is missing: no "imageLinks" in [0].volumeInfo"#)
        #expect(failure?.underlying != nil)
    }

    @Test func nullParentOfRequiredValueIsReportedAsNull() {
        let failure = #expect(throws: DecodingFailure.self) {
            try PathDecoder().decode(Required.self, from: json(#"{"volumeInfo": {"imageLinks": null}}"#))
        }
        #expect(failure?.message == #"required value is missing: "imageLinks" is null in volumeInfo"#)
    }

    @Test func nullRequiredValueSaysFoundNull() {
        let failure = #expect(throws: DecodingFailure.self) {
            try PathDecoder().decode(
                Required.self, from: json(#"{"volumeInfo": {"imageLinks": {"smallThumbnail": null}}}"#))
        }
        #expect(failure?.code == .nullValue)
        #expect(failure?.description == "volumeInfo.imageLinks.smallThumbnail: expected String, found null")
    }
}
