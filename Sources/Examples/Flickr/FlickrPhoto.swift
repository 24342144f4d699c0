import Decoding
import ExampleSupport
import Foundation

/// One photo of a `flickr.photos.search` answer, as Flickr sends it.
///
/// Real responses disagree on types: ids, coordinates and dates arrive as strings in some
/// photos and as numbers in others, so every scalar is a `@LosslessValue`. The description
/// lives at `description._content`; a path key reads it without a nested type.
struct FlickrPhoto: Decodable, Sendable {
    enum CodingKeys: String, CodingKey {
        case id, owner, title, secret, server, latitude, longitude, accuracy, woeid
        case ownerName = "ownername"
        case placeID = "place_id"
        case details = "description._content"
        case uploaded = "dateupload"
    }

    @LosslessValue var id: String
    @LosslessValue var owner: String?
    @LosslessValue var ownerName: String?
    @LosslessValue var title: String?
    @LosslessValue var secret: String?
    @LosslessValue var server: String?
    @LosslessValue var latitude: Double?
    @LosslessValue var longitude: Double?
    @LosslessValue var accuracy: Int?
    @LosslessValue var placeID: String?
    @LosslessValue var woeid: Int?
    @LosslessValue var details: String?
    @LosslessValue var uploaded: Int64?

    /// Where the photo was taken, or why that is not known.
    ///
    /// Flickr says "no location" with `0`/`0` (and accuracy 0), so exactly 0, 0 counts as
    /// unusable; so do missing, out-of-range and non-finite coordinates.
    var location: Result<(latitude: Double, longitude: Double), UnusableLocation> {
        guard let latitude, let longitude else { return .failure(UnusableLocation("no coordinates")) }
        guard latitude.isFinite, longitude.isFinite, (-90...90).contains(latitude), (-180...180).contains(longitude)
        else { return .failure(UnusableLocation("coordinates out of range (\(latitude), \(longitude))")) }
        guard latitude != 0 || longitude != 0 else {
            return .failure(UnusableLocation("latitude 0, longitude 0 (location hidden)"))
        }
        return .success((latitude, longitude))
    }

    /// The photo's image on Flickr's static host, when the answer names its server and secret.
    var imageURL: String? {
        guard let server, let secret, !server.isEmpty, !secret.isEmpty else { return nil }
        return "https://live.staticflickr.com/\(server)/\(id)_\(secret).jpg"
    }

    /// The photo as the store keeps it, with the photographer and the place it refers to, or why
    /// it cannot be kept.
    ///
    /// - Parameter now: the time of this fetch.
    /// - Returns: the stored photo, its photographer and its place (`nil` without a place id), or
    ///   the reason its location is unusable.
    func stored(fetchedAt now: Date) -> Result<StoredPhoto, UnusableLocation> {
        location.map { position in
            let ownerID = owner ?? ""
            let place = placeID.flatMap { $0.isEmpty ? nil : Place(id: $0, woeid: woeid) }
            let photo = Photo(
                id: id, title: title ?? "", ownerID: ownerID, latitude: position.latitude,
                longitude: position.longitude, accuracy: accuracy, placeID: place?.id, details: details ?? "",
                imageURL: imageURL, uploaded: uploaded.map { Date(timeIntervalSince1970: TimeInterval($0)) },
                firstFetched: now, lastFetched: now)
            return StoredPhoto(
                photo: photo, photographer: Photographer(id: ownerID, name: ownerName ?? owner ?? ""), place: place)
        }
    }
}

/// A photo as the store keeps it, with the rows it refers to.
struct StoredPhoto: Sendable {
    var photo: Photo
    let photographer: Photographer
    let place: Place?
}

/// Why a photo's location cannot be plotted.
struct UnusableLocation: Error, Sendable, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
