import Decoding
import Foundation
import Testing

/// Inputs `FuzzJSON` (`Fuzz/`, `Scripts/fuzz.sh`) found, kept as they were found.
@Suite("Fuzz findings: decoding")
struct DecodingFuzzFindingsTests {
    /// Any JSON value, decoded as apps write one: an object's keys listed with `allKeys` and each
    /// decoded with a key type of the app's own.
    enum AnyJSON: Decodable, Equatable {
        case number(Double)
        case string(String)
        case bool(Bool)
        case object([String: AnyJSON])

        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        init(from decoder: any Decoder) throws {
            if let object = try? decoder.container(keyedBy: Key.self) {
                var items: [String: AnyJSON] = [:]
                for key in object.allKeys { items[key.stringValue] = try object.decode(AnyJSON.self, forKey: key) }
                self = .object(items)
                return
            }
            let value = try decoder.singleValueContainer()
            if let bool = try? value.decode(Bool.self) {
                self = .bool(bool)
            } else if let number = try? value.decode(Double.self) {
                self = .number(number)
            } else {
                self = .string(try value.decode(String.self))
            }
        }
    }

    /// A key the data names with path syntax (`[1status_code`, `a.b`, one with a dot inside a
    /// sentence) was read as a path: `PathDecoder` threw, or read another value, where
    /// `JSONDecoder` reads the key.
    @Test(arguments: [
        #"{"[1status_code": 7, "status_message": "Invalid API lid(key.E22]", "success": false}"#,
        #"{"a.b": 1, "a": {"b": 2}}"#,
        #"{"statI, key: You must be granted a valid key.us_code": 7, "x[0]": "y", "q?": true}"#,
    ])
    func aKeyTheObjectHoldsIsReadAsThatKey(_ text: String) throws {
        let data = Data(text.utf8)
        let ours = try PathDecoder().decode(AnyJSON.self, from: data)
        #expect(ours == (try JSONDecoder().decode(AnyJSON.self, from: data)))
        // The JSONDecoder route too (a duplicate key sends the whole document there).
        let doubled = Data((String(text.dropLast()) + #", "dup": 1, "dup": 2}"#).utf8)
        #expect((try? PathDecoder().decode(AnyJSON.self, from: doubled)) == (try? JSONDecoder().decode(AnyJSON.self, from: doubled)))
    }

    /// A model's path key still reads a path when the object holds no key of that text.
    @Test func aPathKeyReadsItsPathWhenNoKeyHasItsText() throws {
        struct Model: Decodable {
            var inner: Int
            enum CodingKeys: String, CodingKey { case inner = "a.b" }
        }
        #expect(try PathDecoder().decode(Model.self, from: Data(#"{"a": {"b": 2}}"#.utf8)).inner == 2)
        #expect(try PathDecoder().decode(Model.self, from: Data(#"{"a.b": 1, "a": {"b": 2}}"#.utf8)).inner == 1)
    }
}
