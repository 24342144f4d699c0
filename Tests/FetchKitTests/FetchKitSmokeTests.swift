import TestSupport
import Testing

@testable import FetchKit

@Suite struct FetchKitSmokeTests {
    @Test func fixturesAreBundled() throws {
        let files = try Fixtures.files(in: "googlebooks")
        #expect(files.count == 6)
    }
}
