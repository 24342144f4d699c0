import Foundation
import TestSupport
import Testing

@testable import Decoding

/// The fast path against `JSONDecoder` with the path-aware wrapper, on the JSONTestSuite corpus
/// and the recorded API responses: equal values or equal errors, always.
@Suite struct FastPathDifferentialTests {
    static let corpus: [URL] = (try? Fixtures.files(in: "jsontestsuite")) ?? []

    /// Every file of the corpus, read by the fast path's parser and scalar conversions, is the
    /// value Foundation reads, or the fast path defers; it never accepts what Foundation refuses.
    @Test func theCorpusReadsAsFoundationReadsItOrDefers() throws {
        #expect(Self.corpus.count == 318)
        var read = 0
        for file in Self.corpus {
            let data = try Data(contentsOf: file)
            let foundation = try? JSONDecoder().decode(JSONValue.self, from: data)
            switch NodeTree.parse(data) {
            case .success(let value?):
                #expect(value == foundation, "\(file.lastPathComponent)")
                read += 1
            case .success(nil), .failure:
                continue
            }
            #expect(!file.lastPathComponent.hasPrefix("n_"), "\(file.lastPathComponent) is not JSON")
        }
        // Most `y_` files: those without exponents, negative zeros or lone surrogates.
        #expect(read >= 70)
    }

    /// Every file of the corpus decoded as an untyped value and as typed values, both ways.
    @Test func theCorpusDecodesTheSameBothWays() throws {
        for file in Self.corpus {
            let data = try Data(contentsOf: file)
            Differential.compare(JSONValue.self, data)
            Differential.compare([String].self, data)
            Differential.compare([Int].self, data)
            Differential.compare([Double].self, data)
            Differential.compare([String?].self, data)
            Differential.compare([String: String].self, data)
            Differential.compare([[Int]].self, data)
            Differential.compare(Double.self, data)
            Differential.compare(String?.self, data)
        }
    }

    /// Numbers of every shape (integers, fractions, long mantissas, leading zeros, signs)
    /// convert to `Double`, `Float` and `Int` exactly as Foundation converts them, or defer.
    @Test func numbersConvertAsFoundationConvertsThem() {
        var generator = LinearCongruential(seed: 29)
        var decoded = 0
        for _ in 0..<3_000 {
            let text = generator.numberText()
            let data = json("[\(text)]")
            if Differential.compare([Double].self, data) == .decoded { decoded += 1 }
            Differential.compare([Float].self, data)
            Differential.compare([Int].self, data)
        }
        #expect(decoded > 2_000)
    }

    static let googleBooks = [
        "googlebooks/volumes_1_item_no_imagelinks.json",
        "googlebooks/volumes_dawn_page1_30_items.json",
        "googlebooks/volumes_dawn_page2_30_items.json",
        "googlebooks/volumes_subject_fiction_ru_20_items.json",
        "googlebooks/volumes_tolstoy_10_items_2015.json",
        "googlebooks/volumes_zero_results.json",
    ]

    @Test(arguments: googleBooks)
    func googleBooksPagesDecodeTheSameBothWays(_ name: String) throws {
        let data = try Fixtures.data(name)
        #expect(Differential.compare(BookPage.self, data) == .decoded)
        Differential.compare([PathKeyedBookData]?.self, data, at: "items")
        Differential.compare(JSONValue.self, data)
        Differential.compare(ShelfSummary.self, data)
        for path in Self.bookPaths {
            Differential.compare(String?.self, data, at: path)
            Differential.compare(String.self, data, at: path)
            Differential.compare(Int?.self, data, at: path)
            Differential.compare([Book].self, data, at: path)
        }
        Differential.compare([Book].self, data, at: "items")
        Differential.compare(Book?.self, data, at: "items.first")
        Differential.compare(BookPage.self, data, decoder: PathDecoder { $0.isStrict = true })
        Differential.compare(
            BookPage.self, data, decoder: PathDecoder { $0.keyDecodingStrategy = .convertFromSnakeCase })
    }

    static let bookPaths = [
        "totalItems", "kind", "items.first.volumeInfo.title", "items.last.id", "items[0].volumeInfo.pageCount",
        "items.3.volumeInfo.industryIdentifiers[type=ISBN_13].identifier",
        "items[volumeInfo.title=Dawn]", "items.first.volumeInfo.industryIdentifiers[type=ISBN_10]",
        "items[kind=books#volume].volumeInfo.imageLinks.thumbnail", "items.99.id", "items.first.missing.deeper",
        "items.first.volumeInfo.title.deeper", "items.first.saleInfo.listPrice.amount",
        "items.first.volumeInfo.readingModes[text=true]", "items[0][0]", "[0]",
        "items.first.accessInfo.pdf.isAvailable",
    ]

    static let others = [
        "flickr/error_stat_fail_code_100_invalid_api_key.json",
        "flickr/photos_search_cat_description_ownername_2019.json",
        "flickr/photos_search_no_geo_2014.json",
        "flickr/photos_with_geo_extras_2014.json",
        "tmdb/error_status_code_7_invalid_api_key.json",
        "tmdb/movie_1011985_kung_fu_panda_4.json",
        "tmdb/movie_199951_2017.json",
        "tmdb/search_movie_fight_club_page1.json",
        "tmdb/search_movie_tarantino_2017.json",
    ]

    @Test(arguments: others)
    func flickrAndTMDBResponsesDecodeTheSameBothWays(_ name: String) throws {
        let data = try Fixtures.data(name)
        Differential.compare(JSONValue.self, data)
        Differential.compare([Photo].self, data, at: "photos.photo")
        Differential.compare([Photo]?.self, data, at: "photos.photo")
        Differential.compare(Movie.self, data)
        Differential.compare([Movie].self, data, at: "results")
        Differential.compare(MovieSummary.self, data)
        Differential.compare(MovieSearchPage.self, data)
        Differential.compare(Int?.self, data, at: "photos.photo[isfriend=0].farm")
        Differential.compare(String?.self, data, at: "photos.photo.last.title")
        Differential.compare(Double?.self, data, at: "results[id=680].popularity")
        Differential.compare(String?.self, data, at: "genres[name=Action].id")
    }

    /// The typed models of the recorded responses, where the fast path must be the one that decodes.
    @Test func typedModelsOfRecordedResponsesTakeTheFastPath() throws {
        #expect(
            Differential.compare(MovieSearchPage.self, try Fixtures.data("tmdb/search_movie_fight_club_page1.json"))
                == .decoded)
        #expect(
            Differential.compare(MovieSummary.self, try Fixtures.data("tmdb/movie_1011985_kung_fu_panda_4.json"))
                == .decoded)
        #expect(
            Differential.compare(
                ShelfSummary.self, try Fixtures.data("googlebooks/volumes_dawn_page1_30_items.json")) == .decoded)
        #expect(
            Differential.compare(
                [Book].self, try Fixtures.data("googlebooks/volumes_dawn_page2_30_items.json"), at: "items")
                == .decoded)
    }
}
