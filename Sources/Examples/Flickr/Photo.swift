import Foundation
import Persistence

/// A stored photo: one row per Flickr photo id, upserted on every fetch.
///
/// The end-to-end tests declare the same shape (`FlickrTests.swift`) to open the store;
/// keep them in sync.
struct Photo: StoredEntity {
    /// Flickr's photo id.
    var id: String
    var title: String
    /// The owner's NSID, such as `85853333@N00`.
    var ownerID: String
    /// The owner's display name (the NSID when Flickr sent none).
    var ownerName: String
    var latitude: Double
    var longitude: Double
    /// Flickr's accuracy level, 1 (world) to 16 (street).
    var accuracy: Int?
    /// Flickr's place id (an opaque token; its name needs `flickr.places.getInfo`).
    var placeID: String?
    /// The description's text.
    var details: String
    var imageURL: String?
    var uploaded: Date?
    /// When a fetch first stored the photo.
    var firstFetched: Date
    /// When a fetch last saw it.
    var lastFetched: Date

    static let ownerName = Field<Photo, String>("ownerName")
    static let placeID = Field<Photo, String?>("placeID")
    static let uploaded = Field<Photo, Date?>("uploaded")
    static let indexes = [EntityIndex(ownerName, caseInsensitive: true), EntityIndex(placeID), EntityIndex(uploaded)]
}
