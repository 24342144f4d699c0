import ExampleSupport
import Foundation
import Persistence
import TestSupport

extension ExampleSandbox {
    /// A sandbox for flickr, whose runs use its offline stream.
    static func flickr() throws -> ExampleSandbox {
        try ExampleSandbox(.flickr)
    }

    /// The environment of a flickr run with the offline stream pinned at `tick`, `extra` on top.
    func environment(tick: Int, extra: [String: String?] = [:]) -> [String: String?] {
        var variables = extra
        variables["FLICKR_OFFLINE_TICK"] = String(tick)
        return environment(variables)
    }

    /// Runs flickr with the offline stream pinned at `tick`.
    func run(_ arguments: [String], tick: Int, extra: [String: String?] = [:]) async throws -> ProgramRun {
        try await run(arguments, environment: environment(tick: tick, extra: extra))
    }

    /// The photos in the store, opened with Persistence.
    func storedPhotos() throws -> [Photo] {
        try readPhotos { tx in try tx.fetch(Query<Photo>()) }
    }

    /// The photographers' names in the store, by NSID.
    func storedPhotographers() throws -> [String: String] {
        try readPhotos { tx in
            Dictionary(try tx.fetch(Query<Photographer>()).map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
        }
    }

    /// Reads the store as flickr opens it (its entities and migration).
    func readPhotos<T>(_ block: (ObjectTransaction) throws -> T) throws -> T {
        let opened = try PhotoStore.open(at: store)
        defer { opened.close() }
        return try opened.context.readAndWait(block)
    }

    /// Writes photos and their photographers into the store directly, as another program sharing
    /// it would (each photo's place, when it has one, is stored too).
    func insert(_ photos: [(Photo, Photographer)]) throws {
        let opened = try PhotoStore.open(at: store)
        defer { opened.close() }
        try opened.context.persistAndWait { tx in
            for (photo, photographer) in photos {
                try tx.upsert(photographer)
                if let place = photo.placeID { try tx.upsert(Place(id: place, woeid: nil)) }
                try tx.insert(photo)
            }
        }
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
