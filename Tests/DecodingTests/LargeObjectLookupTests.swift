import Foundation
import Testing

@testable import Decoding

/// Objects of more than 32 members are looked up through a table of their keys' bytes when
/// every key is plain ASCII; the answers are the ones `JSONDecoder`'s dictionary gives, for
/// present and absent keys, non-ASCII keys that equal ASCII ones, and escaped keys.
@Suite struct LargeObjectLookupTests {
    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Looks up each of `lookups` in the top-level object: its integer, or nil when absent.
    struct Probe: Decodable, Equatable {
        static let lookups: [String] = (0..<40).map { "key\($0)" } + [
            "key40", "", "K", "\u{212A}", "semi;", "semi\u{037E}", "caf\u{E9}", "cafe\u{301}", "esc\"aped",
        ]
        var values: [Int?]

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            values = try Self.lookups.map { try container.decodeIfPresent(Int.self, forKey: Key(stringValue: $0)) }
        }
    }

    private func object(_ extra: [(String, Int)]) throws -> Data {
        var members = (0..<36).reversed().map { "\"key\($0)\":\($0)" }
        for (key, value) in extra {
            let encoded = String(decoding: try JSONEncoder().encode(key), as: UTF8.self)
            members.append("\(encoded):\(value)")
        }
        return Data(("{" + members.joined(separator: ",") + "}").utf8)
    }

    @Test(arguments: [
        [("K", 100), ("semi;", 101)],  // plain keys only: the byte table
        [("\u{212A}", 100), ("semi;", 101)],  // a non-ASCII key: the string dictionary
        [("caf\u{E9}", 100), ("K", 101)],  // precomposed, looked up decomposed too
        [("esc\"aped", 100), ("K", 101)],  // an escaped key: the string dictionary
    ])
    func lookupsAnswerAsJSONDecoderDoes(_ extra: [(String, Int)]) throws {
        let data = try object(extra)
        let ours = try PathDecoder().decode(Probe.self, from: data)
        let foundation = try JSONDecoder().decode(Probe.self, from: data)
        #expect(ours == foundation)
        #expect(ours.values.compactMap { $0 }.count >= 37)
    }
}
