import Foundation
import Testing

@testable import FetchKit

/// Inputs the fuzz targets (`Fuzz/`, `Scripts/fuzz.sh`) found to fail, kept as they were found.
@Suite("Fuzz findings")
struct FuzzFindingsTests {
    /// `FuzzHTTPHeaders`: a year below 1000 parsed, then formatted with three digits
    /// (`Sat, 06 Nov 748 …`), which is no HTTP date.
    @Test(arguments: ["Sun, 06 Nov 0748 18:49:37 GMT", "Sat, 01 Jan 0000 00:00:00 GMT", "Fri, 31 Dec 9999 23:59:59 GMT"])
    func anHTTPDateFormatsBackToTheSameDate(_ text: String) throws {
        let date = try #require(HTTPDate.parse(text))
        let formatted = HTTPDate.format(date)
        #expect(HTTPDate.parse(formatted) == date, "\(text) formats as \(formatted)")
    }

    /// A date an HTTP date cannot write (before year 0, after 9999) is written as the nearest
    /// one it can, four digits of year, never as a text that does not parse.
    @Test func aDateOutsideTheYearsAnHTTPDateWritesIsClampedToThem() throws {
        let late = HTTPDate.format(Date(timeIntervalSince1970: 400_000_000_000))
        #expect(late == "Fri, 31 Dec 9999 23:59:59 GMT")
        let early = HTTPDate.format(Date(timeIntervalSince1970: -100_000_000_000))
        #expect(HTTPDate.parse(early) != nil, "\(early)")
        #expect(early.hasSuffix("0000 00:00:00 GMT"), "\(early)")
    }
}
