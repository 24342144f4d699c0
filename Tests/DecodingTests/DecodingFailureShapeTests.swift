import Decoding
import Foundation
import Testing

/// `DecodingFailure` has the package's one error shape: a `code` matched with `~=`, read-only
/// facts, and a one-line description whatever the JSON's keys and strings hold.
@Suite struct DecodingFailureShapeTests {
    struct Entry: Decodable {
        var count: Int

        enum CodingKeys: String, CodingKey {
            case count = "line one\nline two"
        }
    }

    @Test func aKeyWithALineBreakStillGivesAOneLineDescription() throws {
        let data = Data(#"{"line one\nline two": "many"}"#.utf8)
        let failure = try #require(throws: DecodingFailure.self) { try PathDecoder().decode(Entry.self, from: data) }
        #expect(failure.code == .typeMismatch)
        #expect(failure.description.allSatisfy { !$0.isNewline }, "\(failure.description)")
        #expect(failure.description.contains("line one"), "\(failure.description)")
    }

    @Test func aCodeMatchesInACatchClause() {
        let data = Data(#"{"count": "many"}"#.utf8)
        struct Plain: Decodable { var count: Int }
        var matched = "none"
        do {
            _ = try PathDecoder().decode(Plain.self, from: data)
        } catch DecodingFailure.Code.missingValue {
            matched = "missingValue"
        } catch DecodingFailure.Code.typeMismatch {
            matched = "typeMismatch"
        } catch {
            matched = "other: \(error)"
        }
        #expect(matched == "typeMismatch")
        #expect(DecodingFailure.Code.typeMismatch.description == "typeMismatch")
    }
}
