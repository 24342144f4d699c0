import ExampleSupport
import FetchKit
import FetchKitTesting
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Where photos come from: the embedded offline server (the default) or Flickr itself
/// (`--live`), with the key that goes with it and the client to use.
struct PhotoSource: Sendable {
    /// The REST service URL.
    let service: URL
    /// The API key (never printed).
    let key: String
    /// What to check when Flickr refuses the key.
    let keyHint: String
    /// Where the photos come from, for a person.
    let origin: String
    /// The offline server, kept running while the program runs.
    let server: StubServer?

    /// The live source: `https://api.flickr.com/services/rest/` with `FLICKR_API_KEY`.
    ///
    /// - Parameters:
    ///   - program: the program, which reads the key.
    ///   - environment: the process environment.
    /// - Returns: the source.
    /// - Throws: `ExampleFailure` naming `FLICKR_API_KEY` when it is unset, before any request.
    static func live(program: ExampleProgram, environment: [String: String]) throws -> PhotoSource {
        let key = try program.liveKey(from: "FLICKR_API_KEY", environment: environment)
        guard let service = FlickrEndpoint.liveService else {
            throw ExampleFailure(
                "the Flickr service URL is invalid", fix: "this is a bug in the example; please report it")
        }
        return PhotoSource(
            service: service, key: key, keyHint: "check the key in FLICKR_API_KEY", origin: "api.flickr.com",
            server: nil)
    }

    /// The offline source: an embedded server on 127.0.0.1 serving `PhotoStream`.
    ///
    /// The stream's tick follows the wall clock (one tick, 25 new photos, every 10 seconds)
    /// unless `FLICKR_OFFLINE_TICK` pins it. The key sent is `OfflineServers.offlineKey`, or
    /// `FLICKR_OFFLINE_KEY` (the server refuses any other, as Flickr does a bad key).
    /// `FLICKR_OFFLINE_LATENCY` sets the server's delay (default 40ms); `FLICKR_OFFLINE_HOLD`
    /// names a file the server waits for (at most 30 seconds) before each answer;
    /// `FLICKR_OFFLINE_DOWN=1` makes it answer every search `503` with `Retry-After: 30`.
    ///
    /// - Parameter environment: the process environment.
    /// - Returns: the source, its server running.
    /// - Throws: `ExampleFailure` for a malformed variable or when no loopback port opens.
    static func offline(environment: [String: String]) throws -> PhotoSource {
        var tick: @Sendable () -> Int
        let tickText: String
        if let pinned = environment["FLICKR_OFFLINE_TICK"] {
            guard let value = Int(pinned.trimmingCharacters(in: .whitespaces)), value >= 0, value <= 1_000_000_000
            else {
                throw ExampleFailure(
                    "FLICKR_OFFLINE_TICK must be a whole number from 0 to 1000000000, not '\(pinned)'",
                    fix: "unset it, or set a number such as 100")
            }
            tick = { value }
            tickText = "stream pinned at tick \(value)"
        } else {
            tick = { PhotoStream.tick(at: Date()) }
            tickText = "stream at tick \(PhotoStream.tick(at: Date())), 25 new photos every 10s"
        }
        if let gate = environment["FLICKR_OFFLINE_HOLD"], !gate.isEmpty {
            // The server reads the tick while it builds each answer, so waiting here holds the answer.
            let stream = tick
            tick = {
                holdUntilFileExists(gate, atMost: 30)
                return stream()
            }
        }
        var latency = Duration.milliseconds(40)
        if let text = environment["FLICKR_OFFLINE_LATENCY"] {
            do {
                latency = try IntervalText.parse(text, option: "FLICKR_OFFLINE_LATENCY")
            } catch {
                throw ExampleFailure(error.problem, fix: "unset it, or set a duration such as 40ms")
            }
        }
        let key = environment["FLICKR_OFFLINE_KEY"] ?? OfflineServers.offlineKey
        let down = environment["FLICKR_OFFLINE_DOWN"].map { !$0.isEmpty && $0 != "0" } ?? false
        let server = try OfflineServers.start("Flickr") {
            try OfflineServers.flickr(tick: tick, latency: latency, down: down)
        }
        return PhotoSource(
            service: server.baseURL.appendingPathComponent("services/rest/", isDirectory: true), key: key,
            keyHint: "offline, the server accepts only its own key: unset FLICKR_OFFLINE_KEY",
            origin: "the offline server at 127.0.0.1:\(server.port) (\(tickText))", server: server)
    }

    /// Waits until a file exists, for at most `limit` seconds (`FLICKR_OFFLINE_HOLD`: a test
    /// that must interrupt a fetch while it is in progress releases the answer when it is ready).
    private static func holdUntilFileExists(_ path: String, atMost limit: TimeInterval) {
        let deadline = Date().addingTimeInterval(limit)
        while !FileManager.default.fileExists(atPath: path), Date() < deadline {
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    /// The client whose configuration builds requests: a 20-second timeout, the key as
    /// `api_key` through an `APIKeyAdapter`, and Flickr's `"stat": "fail"` detector.
    func makeClient() -> FetchClient {
        FetchClient { configuration in
            configuration.timeout = .seconds(20)
            configuration.adapters = [APIKeyAdapter(.query(name: "api_key"), value: key)]
            configuration.apiFailureDetector = APIFailure.jsonField(
                "stat", equals: "fail", code: "code", message: "message")
        }
    }

    /// Page `number` (from 1) of the search for recent geo-referenced photos on this source,
    /// ``RecentPhotosFetcher/perPage`` photos a page.
    func recentPhotos(page number: Int) -> FlickrEndpoint {
        .recentGeoreferencedPhotos(service: service, perPage: RecentPhotosFetcher.perPage, page: number)
    }
}
