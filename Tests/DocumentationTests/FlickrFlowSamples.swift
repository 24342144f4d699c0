import Decoding
import FetchKit
import FetchKitTesting
import Foundation
import Persistence
import TestSupport
import Testing

/// The "ours" side of the `FlowFlickr` article, piece by piece.
enum FlickrFlow {
    // MARK: 1. The endpoint, without the key

    enum Flickr: Endpoint {
        case recentGeoPhotos(page: Int)

        var baseURL: URL { URL(string: "https://api.flickr.com/services/rest") ?? URL(fileURLWithPath: "/") }
        var path: String { "" }
        var queryItems: [URLQueryItem] {
            switch self {
            case .recentGeoPhotos(let page):
                [
                    URLQueryItem(name: "method", value: "flickr.photos.search"),
                    URLQueryItem(name: "has_geo", value: "1"),
                    URLQueryItem(name: "extras", value: "geo,owner_name,description"),
                    URLQueryItem(name: "page", value: "\(page)"),
                    URLQueryItem(name: "format", value: "json"),
                    URLQueryItem(name: "nojsoncallback", value: "1"),
                ]
            }
        }
    }

    // MARK: 2. A 200 that is an error

    static func makeClient(key: String) -> FetchClient {
        FetchClient { configuration in
            configuration.adapters = [APIKeyAdapter(.query(name: "api_key"), value: key)]
            configuration.apiFailureDetector = APIFailure.jsonField(
                "stat", equals: "fail", code: "code", message: "message")
        }
    }

    // MARK: 3. valueForKeyPath: → a path, and types that disagree

    struct FlickrPhoto: Decodable, Sendable {
        enum CodingKeys: String, CodingKey {
            case id, title, latitude, longitude
            case owner = "ownername"
            case details = "description._content"
        }

        @LosslessValue var id: String  // "14256698876" or 14256698876
        var title: String
        @LosslessValue var latitude: Double?  // "37.765819", 37.765819, or absent
        @LosslessValue var longitude: Double?
        var owner: String?
        var details: String?
    }

    static func recentPhotos(client: FetchClient) async throws(FetchError) -> [FlickrPhoto] {
        try await client.fetch(
            Flickr.recentGeoPhotos(page: 1), extracting: .decode([FlickrPhoto].self, at: "photos.photo"))
    }

    // MARK: 4. The named download task → a download shared by its key

    static func downloadRecentPhotos(client: FetchClient, cacheFile: URL) async throws -> [FlickrPhoto] {
        let file = try await client.fetch(
            Flickr.recentGeoPhotos(page: 1), extracting: .file(to: cacheFile), sharing: "recent-photos")
        let data = try Data(contentsOf: file)
        return try PathDecoder().decode([FlickrPhoto].self, from: data, at: "photos.photo")
    }

    static func downloadAll(
        _ pages: [Int], client: FetchClient, folder: URL, backgroundCompletionHandler: @escaping @Sendable () -> Void
    ) async {
        await withTaskGroup(of: Void.self) { group in
            for page in pages {
                group.addTask {
                    let file = folder.appendingPathComponent("recent-\(page).json")
                    _ = try? await client.fetch(Flickr.recentGeoPhotos(page: page), extracting: .file(to: file))
                }
            }
        }
        backgroundCompletionHandler()  // once, when the last download has ended
    }

    // MARK: 5. Into the store, once per photo

    struct Photo: StoredEntity {
        var id: String  // Flickr's photo id
        var title: String
        var latitude: Double?
        var longitude: Double?
        var owner: String?

        init(_ photo: FlickrPhoto) {
            id = photo.id
            title = photo.title
            latitude = photo.latitude
            longitude = photo.longitude
            owner = photo.owner
        }
    }

    static func load(_ photos: [FlickrPhoto], into store: ObjectStore) async throws -> Int {
        try await store.context.persist { tx in
            for photo in photos { try tx.upsert(Photo(photo)) }  // fetched twice, stored once
            return try tx.count(Query<Photo>())
        }
    }

    // MARK: 6. "A few times an hour"

    static func watch(client: FetchClient, store: ObjectStore) -> PeriodicFetcher<Int> {
        let fetcher = PeriodicFetcher(every: .seconds(20 * 60), jitter: .seconds(30)) {
            try await load(recentPhotos(client: client), into: store)
        } onRun: { run in
            switch run.result {
            case .success(let count): print("run \(run.number): \(count) photos stored")
            case .failure(let error): print("run \(run.number) failed: \(error)")
            }
        }
        fetcher.start()
        return fetcher
    }
}

@Suite struct FlickrFlowSampleTests {
    @Test func recentPhotosDecodeFromTheRealResponseAtPhotosPhoto() async throws {
        let server = StubServer()
        let data = try Fixtures.data("flickr/photos_with_geo_extras_2014.json")
        server.route("GET", "/services/rest", respond: .data(data, contentType: "application/json"))
        try server.start()
        defer { server.stop() }
        let client = FlickrFlow.makeClient(key: "test-key")

        let photos = try await client.fetch(
            .url(server.url("/services/rest?method=flickr.photos.search")),
            extracting: .decode([FlickrFlow.FlickrPhoto].self, at: "photos.photo"))

        #expect(!photos.isEmpty)
        #expect(photos.allSatisfy { !$0.id.isEmpty })
    }

    @Test func statFailInA200IsAnAPIFailureWithFlickrsMessage() async throws {
        let server = StubServer()
        let data = try Fixtures.data("flickr/error_stat_fail_code_100_invalid_api_key.json")
        server.route("GET", "/services/rest", respond: .data(data, contentType: "application/json"))
        try server.start()
        defer { server.stop() }
        let client = FlickrFlow.makeClient(key: "wrong-key")

        do {
            _ = try await client.fetch(
                .url(server.url("/services/rest")),
                extracting: .decode([FlickrFlow.FlickrPhoto].self, at: "photos.photo"))
            Issue.record("a stat=fail body decoded as photos")
        } catch {
            #expect(error.code == .apiFailure)
            #expect(error.reportedFailure?.code == "100")
        }
    }
}
