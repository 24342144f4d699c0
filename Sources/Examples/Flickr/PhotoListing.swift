import ExampleSupport
import Foundation

/// The text of `flickr list`: every photo, newest first, or groups with counts.
struct PhotoListing {
    /// How `list --by` groups photos.
    enum Grouping: String, Sendable {
        case photographer, place
    }

    /// The photos, newest first.
    let photos: [Photo]

    /// The listing's lines.
    ///
    /// - Parameter grouping: how to group, or nil for one line per photo.
    /// - Returns: the lines, a header first.
    func lines(by grouping: Grouping?) -> [String] {
        guard !photos.isEmpty else { return ["no photos stored yet; run 'flickr fetch' first"] }
        switch grouping {
        case nil: return photoLines()
        case .photographer: return photographerLines()
        case .place: return placeLines()
        }
    }

    private func photoLines() -> [String] {
        let header = "\(FetchReport.count(photos.count, "photo")), newest first:"
        return [header]
            + photos.map { photo in
                let date = photo.uploaded.map { Self.dateFormat.string(from: $0) } ?? "date unknown    "
                let title = photo.title.isEmpty ? "(untitled)" : photo.title
                return "  \(photo.id)  \(date)  \(title) — \(photo.ownerName) "
                    + "(\(Self.coordinates(photo.latitude, photo.longitude)))"
            }
    }

    private func photographerLines() -> [String] {
        let groups = Dictionary(grouping: photos, by: \.ownerID)
            .map { (name: $0.value[0].ownerName, id: $0.key, count: $0.value.count) }
            .sorted { ($1.count, $0.name.lowercased(), $0.id) < ($0.count, $1.name.lowercased(), $1.id) }
        let header =
            "\(FetchReport.count(photos.count, "photo")) by \(FetchReport.count(groups.count, "photographer")):"
        return [header] + groups.map { "  \(Self.pad(FetchReport.count($0.count, "photo")))  \($0.name) (\($0.id))" }
    }

    /// Flickr gives a place id, not a name (the name needs another call); each place is shown
    /// with the mean position of its photos, so a person can tell where it is.
    private func placeLines() -> [String] {
        let groups = Dictionary(grouping: photos, by: { $0.placeID ?? "" })
            .map { entry -> (id: String, count: Int, latitude: Double, longitude: Double) in
                let count = Double(entry.value.count)
                return (
                    entry.key, entry.value.count, entry.value.map(\.latitude).reduce(0, +) / count,
                    entry.value.map(\.longitude).reduce(0, +) / count
                )
            }
            .sorted { ($1.count, $0.id) < ($0.count, $1.id) }
        let header = "\(FetchReport.count(photos.count, "photo")) in \(FetchReport.count(groups.count, "place")):"
        return [header]
            + groups.map { group in
                let name = group.id.isEmpty ? "no place id" : "place \(group.id)"
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
