import Decoding
import Foundation
import TestSupport
import Testing

@Suite struct RobustnessTests {
    static let payloads = [
        "googlebooks/volumes_dawn_page1_30_items.json",
        "googlebooks/volumes_tolstoy_10_items_2015.json",
        "googlebooks/volumes_subject_fiction_ru_20_items.json",
        "googlebooks/volumes_1_item_no_imagelinks.json",
        "googlebooks/volumes_zero_results.json",
        "tmdb/search_movie_fight_club_page1.json",
        "tmdb/movie_1011985_kung_fu_panda_4.json",
        "tmdb/error_status_code_7_invalid_api_key.json",
        "flickr/photos_with_geo_extras_2014.json",
        "flickr/photos_search_cat_description_ownername_2019.json",
        "flickr/error_stat_fail_code_100_invalid_api_key.json",
    ]

    @Test(arguments: payloads)
    func everyTruncationOfARealPayloadThrows(_ name: String) async throws {
        let data = try Fixtures.data(name)
        let content = data.count - (data.reversed().prefix { [0x20, 0x0A, 0x0D, 0x09].contains($0) }.count)
        // About 150 cut points per file, plus every one of the last 40 bytes.
        let step = max(1, content / 150)
        var cuts = Set(stride(from: 0, to: content, by: step))
        cuts.formUnion(max(0, content - 40)..<content)
        for cut in cuts.sorted() {
            await Task.yield()  // Seconds of decoding in all: let the suite's other tests run between cuts.
            let prefix = data.prefix(cut)
            #expect(throws: DecodingFailure.self, "\(name) cut at \(cut)") {
                try PathDecoder().decode(JSONTestSuiteTests.AnyJSON.self, from: prefix)
            }
            #expect(throws: DecodingFailure.self, "\(name) cut at \(cut)") {
                try PathDecoder().decode(BookPage.self, from: prefix)
            }
        }
    }

    @Test func deepNestingThrowsInsteadOfOverflowingTheStack() {
        let depth = 100_000
        let data = Data(repeating: UInt8(ascii: "["), count: depth) + Data(repeating: UInt8(ascii: "]"), count: depth)
        #expect(throws: DecodingFailure.self) {
            try PathDecoder().decode(JSONTestSuiteTests.AnyJSON.self, from: data)
        }
        #expect(throws: DecodingFailure.self) {
            try PathDecoder { $0.isStrict = true }.decode(JSONTestSuiteTests.AnyJSON.self, from: data)
        }
    }

    @Test func moderateNestingThroughAPathDecodes() throws {
        let depth = 200
        let text = String(repeating: #"{"a":"#, count: depth) + "7" + String(repeating: "}", count: depth)
        let path = Array(repeating: "a", count: depth).joined(separator: ".")
        #expect(try PathDecoder().decode(Int.self, from: json(text), at: path) == 7)
    }

    @Test func hugeNumbersThrowForFixedSizeTypes() {
        struct Numbers: Decodable {
            var count: Int
        }
        let failure = #expect(throws: DecodingFailure.self) {
            try PathDecoder().decode(Numbers.self, from: json(#"{"count": 123456789012345678901234567890}"#))
        }
        // Foundation reports a number that does not fit as invalid JSON at the root; the
        // failure names its path and the number instead.
        #expect(failure?.code == .invalidValue)
        #expect(failure?.description == "count: the number 123456789012345678901234567890 does not fit in Int")
        #expect(throws: DecodingFailure.self) {
            try PathDecoder().decode(Double.self, from: json("1e999"))
        }
        #expect(throws: DecodingFailure.self) {
            try PathDecoder().decode([Double].self, from: json("[1e999]"))
        }
    }

    @Test func hugeNumbersFitDecimal() throws {
        let value = try PathDecoder().decode([Decimal].self, from: json("[123456789012345678901234567890]"))
        #expect(value == [Decimal(string: "123456789012345678901234567890")])
    }

    @Test func nonUTF8AndBinaryDataThrow() {
        for bytes in [[0xFF, 0xFE, 0x00], [0x7B, 0x22, 0xC3, 0x28, 0x22, 0x3A, 0x31, 0x7D], [0x00]] as [[UInt8]] {
            #expect(throws: DecodingFailure.self) {
                try PathDecoder { $0.isStrict = true }.decode(JSONTestSuiteTests.AnyJSON.self, from: Data(bytes))
            }
        }
    }

    @Test func concurrentDecodingSharesTheCachesSafely() async throws {
        let data = try Fixtures.data("googlebooks/volumes_dawn_page1_30_items.json")
        let counts = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask { try PathDecoder().decode(BookPage.self, from: data).books.count }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(counts == Array(repeating: 30, count: 8))
    }
}
