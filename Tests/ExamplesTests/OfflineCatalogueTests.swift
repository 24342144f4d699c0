import ExampleSupport
import Foundation
import Testing

/// The offline catalogues behave like the real APIs where the examples depend on it.
@Suite struct OfflineCatalogueTests {
    @Test func unrealEngineFillsTenPagesWhileARareWordGivesAShortLastPage() {
        let catalogue = BookCatalogue()
        #expect(catalogue.volumes.count >= 1_000)
        #expect(catalogue.matches("Unreal Engine").count > 400)
        let rare = catalogue.matches("christie").count
        #expect(rare > 0 && rare % 40 != 0)
        #expect(catalogue.matches("qwxzzyv").isEmpty)
    }

    @Test func aQueryWithNoMatchHasNoItemsKey() throws {
        let body = BookCatalogue().searchResponse(query: "qwxzzyv", startIndex: 0, maxResults: 40)
        let object = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        #expect(object["items"] == nil)
        #expect(object["totalItems"] as? Int == 0)
    }

    @Test func everyISBN13HasAValidCheckDigit() {
        for volume in BookCatalogue().volumes {
            guard let isbn = volume.isbn13 else { continue }
            let digits = isbn.compactMap(\.wholeNumberValue)
            let sum = digits.enumerated().reduce(0) { $0 + $1.element * ($1.offset % 2 == 0 ? 1 : 3) }
            #expect(digits.count == 13 && sum % 10 == 0, "\(isbn)")
        }
    }

    @Test func popularityDriftsOnlyWithADriftSeed() {
        let fixed = MovieCatalogue(driftSeed: nil).movies[550]?.popularity
        #expect(fixed == MovieCatalogue(driftSeed: nil).movies[550]?.popularity)
        #expect(fixed != MovieCatalogue(driftSeed: 42).movies[550]?.popularity)
    }

    @Test func hostileTitlesAreFound() throws {
        let catalogue = MovieCatalogue(driftSeed: nil)
        for title in ["Fast & Furious", "amelie", "東京物語", "Mr. & Mrs. Smith"] {
            let body = catalogue.searchResponse(query: title, page: 1)
            let object = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
            #expect((object["total_results"] as? Int ?? 0) > 0, "\(title)")
        }
    }

    @Test func photosOverlapBetweenTicksAndCarryMixedTypes() throws {
        let stream = PhotoStream()
        func ids(_ tick: Int) throws -> [String] {
            let body = stream.recentResponse(tick: tick, page: 1, perPage: 100)
            let object = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
            let photos = try #require((object["photos"] as? [String: Any])?["photo"] as? [[String: Any]])
            #expect(photos.contains { $0["latitude"] is String } && photos.contains { $0["latitude"] is Double })
            return photos.compactMap { $0["id"] as? String }
        }
        let first = try ids(0)
        let second = try ids(1)
        #expect(first.count == 100 && Set(first).count == 100)
        #expect(Set(first).intersection(second).count == 75)
    }
}
