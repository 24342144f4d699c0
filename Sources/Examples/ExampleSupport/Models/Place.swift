public import Persistence

/// A place of the `flickr` example: one row per Flickr place id, referred to by ``Photo/place``.
///
/// Flickr's search names a place by its ids only (the name needs another call,
/// `flickr.places.getInfo`), so `flickr` shows a place by its id and its photos' mean position.
public struct Place: StoredEntity, Equatable {
    /// Flickr's place id, an opaque token such as `7.MJR8tTVrIO1EgB`.
    public var id: String
    /// The place's Where On Earth id, when Flickr sent one.
    public var woeid: Int?

    /// The photos taken at the place, newest first.
    public static let photos = ToMany<Place, Photo>(inverse: Photo.place, orderedBy: [Photo.uploaded.descending()])

    /// Creates a place.
    ///
    /// - Parameters:
    ///   - id: Flickr's place id.
    ///   - woeid: the Where On Earth id, if known.
    public init(id: String, woeid: Int?) {
        self.id = id
        self.woeid = woeid
    }
}
