// The samples of FetchKit's "Caching, authentication, uploads and progress" article,
// exactly as printed (compiled here; the behaviour is tested in FetchKitTests/Everyday).
import FetchKit
import Foundation

enum EverydayFeaturesSamples {
    struct Movie: Decodable, Sendable {
        var id: Int
        var title: String
        var popularity: Double
    }

    struct Receipt: Decodable, Sendable {
        var id: String
    }

    enum Studio: Endpoint {
        case movie(id: Int)
        case live(id: Int)
        case upload(file: URL)
        case poster(movieID: Int, image: URL)

        var baseURL: URL { URL(string: "https://api.example.com/3")! }
        var path: String {
            switch self {
            case .movie(let id): "/movie/\(id)"
            case .live(let id): "/movie/\(id)/live"
            case .upload: "/uploads"
            case .poster(let id, _): "/movie/\(id)/poster"
            }
        }
        var method: HTTPMethod {
            switch self {
            case .movie, .live: .get
            case .upload, .poster: .post
            }
        }
        var body: RequestBody? {
            switch self {
            case .movie, .live:
                return nil
            case .upload(let file):
                return .file(file, contentType: "video/mp4")
            case .poster(_, let image):
                var form = MultipartFormData()
                form.append("Poster", name: "title")
                form.append(file: image, name: "image", contentType: "image/jpeg")
                return .multipart(form)
            }
        }
        var cachePolicy: CachePolicy {
            switch self {
            case .live: .bypass
            default: .useProtocol
            }
        }
    }

    static func cachedClient(cachesFolder: URL) throws -> FetchClient {
        let cache = try HTTPCache(directory: cachesFolder.appendingPathComponent("api"), maximumBytes: 50 << 20)
        return FetchClient { $0.cache = cache }
    }

    static func offlineFirstClient(cachesFolder: URL) throws -> FetchClient {
        let cache = try HTTPCache(directory: cachesFolder.appendingPathComponent("api"), offlinePolicy: .serveStored)
        return FetchClient { $0.cache = cache }
    }

    static func authenticatedClient(
        savedToken: String?, refresh: @escaping @Sendable () async throws -> String
    )
        -> FetchClient
    {
        let authenticator = TokenAuthenticator(token: savedToken, placement: .bearer, refresh: refresh)
        return FetchClient { $0.authenticator = authenticator }
    }

    static func uploadMovie(_ client: FetchClient, file: URL) async throws -> Receipt {
        try await client.fetch(Studio.upload(file: file), extracting: .decode(Receipt.self))
    }

    static func uploadShowingProgress(_ client: FetchClient, file: URL) async throws -> Receipt {
        let upload = client.fetch(Studio.upload(file: file), extracting: .decode(Receipt.self), completion: nil)
        for await progress in upload.progress {
            print(progress)  // sent 12.3 MB of 200.0 MB, received 0 B
        }
        return try await upload.value
    }

    static func downloadTrailer(_ client: FetchClient, to file: URL) async throws {
        let download = client.fetch(Studio.movie(id: 550), extracting: .file(to: file), completion: nil)
        for await progress in download.progress {
            print(progress.fractionCompleted ?? 0)
        }
        _ = try await download.value
    }

    static func uploadShowingProgress(_ client: FetchClient, file: URL, label: @escaping (String) -> Void) {
        client.fetch(Studio.upload(file: file), extracting: .decode(Receipt.self)) { result in
            label((try? result.get()) == nil ? "Upload failed" : "Uploaded")
        } progress: { progress in
            label("\(Int((progress.fractionCompleted ?? 0) * 100)) %")
        }
    }

    static func logRequest(_ client: FetchClient) throws {
        let prepared = try client.prepare(Studio.movie(id: 550))
        print(prepared)  // curl 'https://api.example.com/3/movie/550?api_key=REDACTED'
    }
}
