import ExampleSupport
import Foundation
import Persistence
import TestSupport

/// A temporary folder for one flickr test: its store, its data home, and runs of the program.
struct FlickrSandbox {
    let folder: TemporaryDirectory

    init() throws {
        folder = try TemporaryDirectory(prefix: "FlickrTests")
    }

    var storePath: String { folder.file("flickr.sqlite").path }

    /// The environment of a run: a private data home, no live key, no offline key override,
    /// and the offline stream pinned at `tick` (or following the clock when nil).
    func environment(tick: Int?, extra: [String: String?] = [:]) -> [String: String?] {
        var environment: [String: String?] = [
            "XDG_DATA_HOME": folder.file("data").path, "FLICKR_API_KEY": nil, "FLICKR_OFFLINE_KEY": nil,
            "FLICKR_OFFLINE_LATENCY": nil, "FLICKR_OFFLINE_TICK": tick.map(String.init),
        ]
        for (key, value) in extra { environment[key] = value }
        return environment
    }

    /// Runs `flickr` with `--store` pointing at this sandbox's store.
    func run(_ arguments: [String], tick: Int? = 5, extra: [String: String?] = [:]) async throws -> ProgramRun {
        try await ProgramRun.run(
            "flickr", arguments + ["--store", storePath], environment: environment(tick: tick, extra: extra))
    }

    /// The photos in the store, opened with Persistence.
    func storedPhotos() throws -> [Photo] {
        let store = try ObjectStore(at: folder.file("flickr.sqlite"), entities: [Photo.self])
        defer { store.close() }
        return try store.context.readAndWait { tx in try tx.fetch(Photo.self) }
    }

    /// Writes photos into the store directly, as another program sharing it would.
    func insert(_ photos: [Photo]) throws {
        let store = try ObjectStore(at: folder.file("flickr.sqlite"), entities: [Photo.self])
        defer { store.close() }
        try store.context.persistAndWait { tx in try tx.insert(contentsOf: photos) }
    }
}

/// What the offline server holds, read independently of the program: the ids of the photos
/// with a usable location in the first page of 250 at a tick, and every photo's coordinates.
enum FlickrOracle {
    static func photos(tick: Int) throws -> [[String: Any]] {
        let body = PhotoStream().recentResponse(tick: tick, page: 1, perPage: 250)
        let object = try JSONSerialization.jsonObject(with: body) as? [String: Any]
        return (object?["photos"] as? [String: Any])?["photo"] as? [[String: Any]] ?? []
    }

    static func coordinate(_ value: Any?) -> Double? {
        switch value {
        case let text as String: Double(text)
        case let number as NSNumber: number.doubleValue
        default: nil
        }
    }

    /// The ids of photos whose coordinates are present and not Flickr's 0/0.
    static func usableIDs(tick: Int) throws -> Set<String> {
        Set(
            try photos(tick: tick).compactMap { photo -> String? in
                guard let latitude = coordinate(photo["latitude"]), let longitude = coordinate(photo["longitude"]),
                    latitude != 0 || longitude != 0
                else { return nil }
                return photo["id"] as? String
            })
    }
}
