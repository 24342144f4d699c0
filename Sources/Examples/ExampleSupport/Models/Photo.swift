public import Foundation
public import Persistence

/// A stored photo of the `flickr` example: one row per Flickr photo id, upserted on every fetch.
///
/// It lives in `ExampleSupport` so the program and its end-to-end tests share one
/// declaration of the store's shape.
public struct Photo: StoredEntity {
    /// Flickr's photo id.
    public var id: String
    /// The photo's title.
    public var title: String
    /// The owner's NSID, such as `85853333@N00`.
    public var ownerID: String
    /// The owner's display name (the NSID when Flickr sent none).
    public var ownerName: String
    /// Where it was taken: latitude in degrees.
    public var latitude: Double
    /// Where it was taken: longitude in degrees.
    public var longitude: Double
    /// Flickr's accuracy level, 1 (world) to 16 (street).
    public var accuracy: Int?
    /// Flickr's place id (an opaque token; its name needs `flickr.places.getInfo`).
    public var placeID: String?
    /// The description's text.
    public var details: String
    /// A URL of the image, when Flickr sent one.
    public var imageURL: String?
    /// When it was uploaded.
    public var uploaded: Date?
    /// When a fetch first stored the photo.
    public var firstFetched: Date
    /// When a fetch last saw it.
    public var lastFetched: Date

    /// The owner's name, for grouping and sorting.
    public static let ownerName = Field<Photo, String>("ownerName")
    /// The owner's NSID, for grouping.
    public static let ownerID = Field<Photo, String>("ownerID")
    /// Where it was taken, for the mean position of a place.
    public static let latitude = Field<Photo, Double>("latitude")
    /// Where it was taken, for the mean position of a place.
    public static let longitude = Field<Photo, Double>("longitude")
    /// The place id, for grouping.
    public static let placeID = Field<Photo, String?>("placeID")
    /// The upload date, for sorting.
    public static let uploaded = Field<Photo, Date?>("uploaded")
    /// The indexes the listings use.
    public static let indexes = [
        EntityIndex(ownerName, caseInsensitive: true), EntityIndex(placeID), EntityIndex(uploaded),
    ]

    /// Creates a photo from all its stored values.
    public init(
        id: String, title: String, ownerID: String, ownerName: String, latitude: Double, longitude: Double,
        accuracy: Int?, placeID: String?, details: String, imageURL: String?, uploaded: Date?, firstFetched: Date,
        lastFetched: Date
    ) {
        self.id = id
        self.title = title
        self.ownerID = ownerID
        self.ownerName = ownerName
        self.latitude = latitude
        self.longitude = longitude
        self.accuracy = accuracy
        self.placeID = placeID
        self.details = details
        self.imageURL = imageURL
        self.uploaded = uploaded
        self.firstFetched = firstFetched
        self.lastFetched = lastFetched
    }
}
