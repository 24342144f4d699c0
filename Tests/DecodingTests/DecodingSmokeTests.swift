import TestSupport
import Testing

@testable import Decoding

@Suite struct DecodingSmokeTests {
    @Test func fixturesAreBundled() throws {
        let files = try Fixtures.files(in: "googlebooks")
        #expect(files.count == 6)
    }
}
