import TestSupport
import Testing

@testable import Persistence

@Suite struct PersistenceSmokeTests {
    @Test func fixturesAreBundled() throws {
        let files = try Fixtures.files(in: "googlebooks")
        #expect(files.count == 6)
    }
}
