import ExampleSupport
import Foundation

/// Photos drawn as one circle of `flickr map`: those sharing a Flickr place id or, for photos
/// without one, those in the same 1° × 1° cell of latitude and longitude.
struct PhotoCluster {
    /// The cluster's photos, in the order they were given (newest first from the store).
    let photos: [Photo]
    /// The photographers' names, by NSID, for the tooltip.
    let photographers: [String: String]
    /// The mean latitude of the photos, in degrees.
    let latitude: Double
    /// The mean longitude of the photos, in degrees.
    let longitude: Double

    /// How many photos the cluster holds (at least one).
    var count: Int { photos.count }

    /// The photos grouped by place, the biggest cluster first (then north to south, west to east).
    ///
    /// - Parameters:
    ///   - photos: the photos to group.
    ///   - photographers: the photographers' names by NSID, for the tooltips.
    /// - Returns: one cluster per place id, and one per 1° cell for photos without a place id.
    static func clusters(of photos: [Photo], photographers: [String: String] = [:]) -> [PhotoCluster] {
        var order: [String] = []
        var groups: [String: [Photo]] = [:]
        for photo in photos {
            let key = placeKey(of: photo)
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(photo)
        }
        return order.compactMap { groups[$0] }
            .map { photos in
                let count = Double(photos.count)
                return PhotoCluster(
                    photos: photos, photographers: photographers, latitude: photos.map(\.latitude).reduce(0, +) / count,
                    longitude: photos.map(\.longitude).reduce(0, +) / count)
            }
            .sorted { ($1.count, $1.latitude, $0.longitude) < ($0.count, $0.latitude, $1.longitude) }
    }

    /// The grouping key of a photo: its place id, or its 1° cell when it has none.
    private static func placeKey(of photo: Photo) -> String {
        if let place = photo.placeID, !place.isEmpty { return "place \(place)" }
        let cell = (Int(photo.latitude.rounded(.down)), Int(photo.longitude.rounded(.down)))
        return "cell \(cell.0) \(cell.1)"
    }

    /// The tooltip: a single photo's title and photographer, or for several photos their
    /// number and position and the first two of them.
    var tooltip: String {
        let named = photos.prefix(2).map(describe)
        guard count > 1 else { return named.joined() }
        let more = count > named.count ? "; and \(count - named.count) more" : ""
        return "\(count) photos near \(Self.degrees(latitude, "N", "S")) \(Self.degrees(longitude, "E", "W")): "
            + named.joined(separator: "; ") + more
    }

    /// A photo as the tooltip names it: `title — photographer`.
    private func describe(_ photo: Photo) -> String {
        "\(photo.title.isEmpty ? "(untitled)" : photo.title) — \(photographers[photo.ownerID] ?? photo.ownerID)"
    }

    /// An angle to one decimal with its hemisphere, such as `35.7°N`.
    private static func degrees(_ value: Double, _ positive: String, _ negative: String) -> String {
        let text = String(format: "%.1f", abs(value))
        return text == "0.0" ? "0°" : "\(text)°\(value > 0 ? positive : negative)"
    }
}
