import ExampleSupport
import Foundation
import Persistence

/// The text of `flickr list`: every photo, newest first, or groups with counts.
///
/// The groups come from grouped queries: SQLite counts the photos per photographer or place (by
/// the photos' references) and averages their positions, so a listing of a large store reads one
/// row per group, and one more query reads the photographers or places those references name.
struct PhotoListing {
    /// How `list --by` groups photos.
    enum Grouping: String, Sendable {
        case photographer, place
    }

    /// The listing's lines, read from `store`.
    ///
    /// - Parameters:
    ///   - store: the store of photos.
    ///   - grouping: how to group, or nil for one line per photo.
    /// - Returns: the lines, a header first.
    static func lines(in store: ObjectStore, by grouping: Grouping?) async throws -> [String] {
        try await store.context.read { tx in
            let total = try tx.count(Query<Photo>())
            guard total > 0 else { return ["no photos stored yet; run 'flickr fetch' first"] }
            switch grouping {
            case nil:
                return photoLines(
                    try tx.fetch(
                        Query<Photo>(sortedBy: [Photo.uploaded.descending(), Photo.idField.descending()]).including(
                            Photo.photographer)))
            case .photographer:
                return photographerLines(total: total, try photographers(tx))
            case .place:
                return placeLines(total: total, try places(tx))
            }
        }
    }

    /// Photos per photographer, most first, then by name (ignoring case) and id: grouped by the
    /// photos' reference, the photographers read with one more query.
    private static func photographers(_ tx: ObjectTransaction) throws -> [(name: String, id: String, count: Int)] {
        let photos = Aggregate.count(of: Photo.self)
        return try tx.groups(
            Query<Photo>(), by: Photo.photographer, aggregating: photos,
            sortedBy: [photos.descending(), .key(Photo.photographer.name.ascending(caseInsensitive: true))]
        ).map { photographer, count in (name: photographer.name, id: photographer.id, count: count) }
    }

    /// Photos per place with their mean position, most first, then by place id.
    private static func places(
        _ tx: ObjectTransaction
    ) throws -> [(place: Place?, count: Int, latitude: Double, longitude: Double)] {
        let photos = Aggregate.count(of: Photo.self)
        let groups = try tx.groups(
            Query<Photo>(), by: Photo.placeID, aggregating: photos, Photo.latitude.average(), Photo.longitude.average(),
            sortedBy: [photos.descending()])
        let places = Dictionary(
            try tx.fetch(Query<Place>(where: Place.photos.isNotEmpty)).map { ($0.id, $0) },
            uniquingKeysWith: { a, _ in a })
        return groups.map { id, count, latitude, longitude in
            (place: id.flatMap { places[$0] }, count: count, latitude: latitude ?? 0, longitude: longitude ?? 0)
        }
    }

    private static func photoLines(_ photos: [(Photo, Photographer?)]) -> [String] {
        let header = "\(FetchReport.count(photos.count, "photo")), newest first:"
        return [header]
            + photos.map { photo, photographer in
                let date = photo.uploaded.map { Self.dateFormat.string(from: $0) } ?? "date unknown    "
                let title = photo.title.isEmpty ? "(untitled)" : photo.title
                return "  \(photo.id)  \(date)  \(title) — \(photographer?.name ?? photo.ownerID) "
                    + "(\(Self.coordinates(photo.latitude, photo.longitude)))\(photo.marked ? "  [marked]" : "")"
            }
    }

    private static func photographerLines(total: Int, _ groups: [(name: String, id: String, count: Int)]) -> [String] {
        let header = "\(FetchReport.count(total, "photo")) by \(FetchReport.count(groups.count, "photographer")):"
        return [header] + groups.map { "  \(Self.pad(FetchReport.count($0.count, "photo")))  \($0.name) (\($0.id))" }
    }

    /// Flickr gives a place id (and a Where On Earth id), not a name (the name needs another
    /// call); each place is shown with the mean position of its photos, so a person can tell
    /// where it is.
    private static func placeLines(
        total: Int, _ groups: [(place: Place?, count: Int, latitude: Double, longitude: Double)]
    ) -> [String] {
        let header = "\(FetchReport.count(total, "photo")) in \(FetchReport.count(groups.count, "place")):"
        return [header]
            + groups.map { group in
                let name =
                    group.place.map { place in "place \(place.id)" + (place.woeid.map { " (WOEID \($0))" } ?? "") }
                    ?? "no place id"
                return "  \(Self.pad(FetchReport.count(group.count, "photo")))  \(name) around "
                    + Self.coordinates(group.latitude, group.longitude)
            }
    }

    /// `37.77°N 122.42°W`.
    static func coordinates(_ latitude: Double, _ longitude: Double) -> String {
        let north = String(format: "%.2f°%@", abs(latitude), latitude < 0 ? "S" : "N")
        let east = String(format: "%.2f°%@", abs(longitude), longitude < 0 ? "W" : "E")
        return "\(north) \(east)"
    }

    private static func pad(_ text: String) -> String {
        text.count >= 10 ? text : text + String(repeating: " ", count: 10 - text.count)
    }

    private static let dateFormat: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter
    }()
}
