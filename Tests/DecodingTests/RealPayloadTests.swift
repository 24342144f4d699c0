import Decoding
import Foundation
import TestSupport
import Testing

@Suite struct GoogleBooksPayloadTests {
    let decoder = PathDecoder()

    @Test func decodesEveryBookOfTheFirstDawnPage() throws {
        let page = try decoder.decode(
            BookPage.self, from: try Fixtures.data("googlebooks/volumes_dawn_page1_30_items.json"))
        #expect(page.totalItems == 811)
        #expect(page.books.count == 30)
        let first = page.books[0]
        #expect(first.id == "pideEAAAQBAJ")
        #expect(first.title == "Dawn")
        #expect(first.authors == "Cees Dekker, Corien Oranje, Gijsbert van den Brink")
        #expect(first.publisher == "InterVarsity Press")
        #expect(first.publishedDate?.text == "2022-09-20")
        #expect(first.publishedDate?.precision == .day)
        #expect(first.isbn13 == "9781514005668")
        #expect(first.bookDescription?.hasPrefix("Discover the wonder of the cosmos") == true)
        #expect(
            first.thumbnailURL?.absoluteString
                == "http://books.google.com/books/content?id=pideEAAAQBAJ&printsec=frontcover&img=1&zoom=5&source=gbs_api"
        )
    }

    @Test func findsTheISBN13WhenItIsNotTheFirstIdentifier() throws {
        let page = try decoder.decode(
            BookPage.self, from: try Fixtures.data("googlebooks/volumes_dawn_page1_30_items.json"))
        // Item 14 lists ISBN_10 first, then ISBN_13, and has no imageLinks or publisher.
        let book = page.books[14]
        #expect(book.title == "When Morning Comes")
        #expect(book.isbn13 == "9780648793458")
        #expect(book.thumbnailURL == nil)
        #expect(book.publisher == nil)
        #expect(book.publishedDate?.text == "2021-10")
        #expect(book.publishedDate?.precision == .month)
    }

    @Test func bookWithoutIdentifiersHasNoISBN() throws {
        let page = try decoder.decode(
            BookPage.self, from: try Fixtures.data("googlebooks/volumes_dawn_page1_30_items.json"))
        #expect(page.books[18].title == "Dawn of Dae")
        #expect(page.books[18].isbn13 == nil)
        #expect(page.books[18].authors == "RJ Blain, Trillian Anderson")
    }

    @Test func oldFormatBooksWithoutAuthorsImagesOrIdentifiersDecode() throws {
        let page = try decoder.decode(
            BookPage.self, from: try Fixtures.data("googlebooks/volumes_tolstoy_10_items_2015.json"))
        #expect(page.books.count == 10)
        #expect(page.books[0].authors == "graf Leo Tolstoy")
        #expect(page.books[0].publishedDate?.year == 1862)
        #expect(page.books[0].publishedDate?.precision == .year)
        #expect(page.books[1].title == "The Omnibus of Modern Romance")
        #expect(page.books[1].authors == nil)
        #expect(page.books[1].thumbnailURL == nil)
        #expect(page.books.allSatisfy { $0.isbn13 == nil })
        #expect(page.books.filter { $0.authors == nil }.count == 4)
        #expect(page.books.filter { $0.thumbnailURL == nil }.count == 2)
    }

    @Test func singleItemWithoutImageLinks() throws {
        let page = try decoder.decode(
            BookPage.self, from: try Fixtures.data("googlebooks/volumes_1_item_no_imagelinks.json"))
        let book = try #require(page.books.first)
        #expect(book.title == "Low-dimensional Topology and Kleinian Groups")
        #expect(book.authors == "D. B. A. Epstein, Nigel J. Hitchin, P. E. Newstead, W. M. Oxbury")
        #expect(book.isbn13 == "9780521339056")
        #expect(book.thumbnailURL == nil)
        #expect(book.publishedDate?.text == "1986")
    }

    @Test func cyrillicBooksWithOnlyAnOtherIdentifierHaveNoISBN() throws {
        let page = try decoder.decode(
            BookPage.self, from: try Fixtures.data("googlebooks/volumes_subject_fiction_ru_20_items.json"))
        #expect(page.books.count == 20)
        #expect(page.books[0].title == "Капитанская дочка")
        #expect(page.books[0].authors == "Александр Пушкин")
        #expect(page.books[0].isbn13 == "9788726360547")
        #expect(page.books[2].title == "Рикки-Тикки-Тави")
        #expect(page.books[2].isbn13 == nil)
        #expect(page.books.filter { $0.isbn13 == nil }.count == 3)
    }

    @Test func zeroResultsMeansAnEmptyListAndAReportedDefault() throws {
        let (page, report) = try decoder.decodeWithReport(
            BookPage.self, from: try Fixtures.data("googlebooks/volumes_zero_results.json"))
        #expect(page.totalItems == 0)
        #expect(page.books.isEmpty)
        #expect(report.entries == [DecodingReport.Entry(path: "items", action: .usedDefault, reason: "key is missing")])
    }

    @Test func booksAtItemsPathDecodeDirectly() throws {
        let books = try decoder.decode(
            [Book].self, from: try Fixtures.data("googlebooks/volumes_dawn_page2_30_items.json"), at: "items")
        #expect(books.count == 30)
        #expect(books[0].id == "mvdKDwAAQBAJ")
        #expect(books[0].authors == "Rik Smits")
        #expect(books[0].publisher == "Routledge")
        #expect(books[0].publishedDate?.text == "2018-02-06")
    }

    @Test func pathKeyedBooksEqualAHandWrittenDecoding() throws {
        for file in try Fixtures.files(in: "googlebooks") {
            let data = try Data(contentsOf: file)
            let handWritten = try JSONDecoder().decode(HandWrittenVolumeData.self, from: data).books ?? []
            let ours = try decoder.decode(PathKeyedVolumeData.self, from: data).books ?? []
            #expect(handWritten.count == ours.count, "\(file.lastPathComponent)")
            for (expected, actual) in zip(handWritten, ours) {
                #expect(actual.title == expected.title)
                #expect(actual.authors == expected.authors)
                #expect(actual.publisher == expected.publisher)
                #expect(actual.publicationDate == expected.publicationDate)
                #expect(actual.bookDescription == expected.bookDescription)
                #expect(actual.isbn13 == expected.isbn13)
                #expect(actual.imageURL == expected.imageURL)
            }
        }
    }
}

@Suite struct TMDBPayloadTests {
    let decoder = PathDecoder()

    @Test func firstSearchResultAtResultsFirst() throws {
        let movie = try decoder.decode(
            Movie.self, from: try Fixtures.data("tmdb/search_movie_fight_club_page1.json"), at: "results.first")
        #expect(movie == Movie(id: 550, title: "Fight Club", popularity: 73.433))
    }

    @Test func firstSearchResultOfThe2017Format() throws {
        let movie = try decoder.decode(
            Movie.self, from: try Fixtures.data("tmdb/search_movie_tarantino_2017.json"), at: "results.first")
        #expect(movie == Movie(id: 199951, title: "Quentin Tarantino: 20 Years of Filmmaking", popularity: 2.583094))
    }

    @Test func lastAndIndexedResults() throws {
        let data = try Fixtures.data("tmdb/search_movie_tarantino_2017.json")
        let second = try decoder.decode(Movie.self, from: data, at: "results.1")
        #expect(second.id == 183766)
        #expect(second.popularity == 1.619358)
        let all = try decoder.decode([Movie].self, from: data, at: "results")
        #expect(try decoder.decode(Movie.self, from: data, at: "results.last") == all.last)
        #expect(all.count == 8)
    }

    @Test func movieByIdInBothFormats() throws {
        let panda = try decoder.decode(Movie.self, from: try Fixtures.data("tmdb/movie_1011985_kung_fu_panda_4.json"))
        #expect(panda == Movie(id: 1_011_985, title: "Kung Fu Panda 4", popularity: 2340.977))
        let old = try decoder.decode(Movie.self, from: try Fixtures.data("tmdb/movie_199951_2017.json"))
        #expect(old.id == 199951)
        #expect(old.popularity == 1.583094)
    }

    @Test func emptyResultsGiveNilForAnOptionalAndAnErrorOtherwise() throws {
        let data = json(#"{"page": 1, "results": [], "total_pages": 0, "total_results": 0}"#)
        #expect(try decoder.decode(Movie?.self, from: data, at: "results.first") == nil)
        let failure = #expect(throws: DecodingFailure.self) {
            try decoder.decode(Movie.self, from: data, at: "results.first")
        }
        #expect(failure?.code == .missingValue)
        #expect(failure?.description == "results.first: required value is missing: the array is empty in results")
    }

    @Test func errorBodyIsNotAMovie() throws {
        let failure = #expect(throws: DecodingFailure.self) {
            try decoder.decode(Movie.self, from: try Fixtures.data("tmdb/error_status_code_7_invalid_api_key.json"))
        }
        #expect(failure?.description == "id: required value is missing")
    }
}

@Suite struct FlickrPayloadTests {
    let decoder = PathDecoder()

    @Test func geotaggedPhotosAtPhotosPhoto() throws {
        let photos = try decoder.decode(
            [Photo].self, from: try Fixtures.data("flickr/photos_with_geo_extras_2014.json"), at: "photos.photo")
        #expect(photos.count == 5)
        #expect(photos[0].id == "10586602103")
        #expect(photos[0].title == "Computer Repair Fax Center")
        #expect(photos[0].ownerName == "Jeremy Brooks")
        #expect(photos[0].latitude == 37.765819)
        #expect(photos[0].longitude == -122.242912)
        #expect(photos[0].photoDescription == "")
        #expect(photos[1].latitude == 39.030652)
    }

    @Test func photosWithoutGeoHaveZeroCoordinates() throws {
        let photos = try decoder.decode(
            [Photo].self, from: try Fixtures.data("flickr/photos_search_no_geo_2014.json"), at: "photos.photo")
        #expect(photos.count == 5)
        #expect(photos[0].title == "San Francisco Spirit")
        #expect(photos[0].ownerName == "a.k.a. Flash")
        #expect(photos[0].latitude == 0)
        #expect(photos[1].title == "")
    }

    @Test func photosWithNoGeoFieldsHaveNilCoordinates() throws {
        let photos = try decoder.decode(
            [Photo].self, from: try Fixtures.data("flickr/photos_search_cat_description_ownername_2019.json"),
            at: "photos.photo")
        #expect(photos.count == 20)
        #expect(photos[0].id == "2448337677")
        #expect(photos[0].ownerName == "mmarsupilami")
        #expect(photos[0].latitude == nil)
        #expect(photos[0].longitude == nil)
        #expect(photos[0].photoDescription?.hasPrefix("C'est ça aussi, la photo.") == true)
    }

    @Test func idsAndCoordinatesArriveAsStringsOrNumbers() throws {
        // Flickr's documented form sends coordinates as strings; the 2014 fixture has numbers.
        // Rewrite one photo to the other form and check both read the same.
        let original = try Fixtures.data("flickr/photos_with_geo_extras_2014.json")
        var text = String(decoding: original, as: UTF8.self)
        text = text.replacingOccurrences(of: #""latitude": 37.765819"#, with: #""latitude": "37.765819""#)
        text = text.replacingOccurrences(of: #""id": "10586602103""#, with: #""id": 10586602103"#)
        #expect(text != String(decoding: original, as: UTF8.self))
        let (photos, report) = try decoder.decodeWithReport([Photo].self, from: json(text), at: "photos.photo")
        #expect(photos[0].id == "10586602103")
        #expect(photos[0].latitude == 37.765819)
        #expect(
            report.entries(.convertedType).map(\.path) == ["photos.photo[0].id", "photos.photo[0].latitude"])
    }

    @Test func failureBodyHasNoPhotos() throws {
        let failure = #expect(throws: DecodingFailure.self) {
            try decoder.decode(
                [Photo].self, from: try Fixtures.data("flickr/error_stat_fail_code_100_invalid_api_key.json"),
                at: "photos.photo")
        }
        #expect(failure?.code == .missingValue)
        #expect(failure?.path == "photos.photo")
    }
}
