public import Foundation
public import Persistence

/// A stored photo of the `flickr` example: one row per Flickr photo id, upserted on every fetch,
/// referring to its ``Photographer`` and its ``Place``.
///
/// It lives in `ExampleSupport` so the program and its end-to-end tests share one
/// declaration of the store's shape (see ``PhotoStore``).
public struct Photo: StoredEntity {
    /// Flickr's photo id.
    public var id: String
    /// The photo's title.
    public var title: String
    /// The owner's NSID, such as `85853333@N00`: the ``Photographer`` it refers to.
    public var ownerID: String
    /// Where it was taken: latitude in degrees.
    public var latitude: Double
    /// Where it was taken: longitude in degrees.
    public var longitude: Double
    /// Flickr's accuracy level, 1 (world) to 16 (street).
    public var accuracy: Int?
    /// Flickr's place id: the ``Place`` it refers to, `nil` when Flickr gave none.
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
    /// Whether the user marked it (`flickr mark`): a marked photo stays in the store after it
    /// leaves Flickr's recent photos. Only this store keeps it.
    public var marked: Bool

    /// The owner's NSID, for grouping: the key of ``photographer``.
    public static let ownerID = Field<Photo, String>("ownerID")
    /// Where it was taken, for the mean position of a place.
    public static let latitude = Field<Photo, Double>("latitude")
    /// Where it was taken, for the mean position of a place.
    public static let longitude = Field<Photo, Double>("longitude")
    /// The place id, for grouping: the key of ``place``.
    public static let placeID = Field<Photo, String?>("placeID")
    /// The upload date, for sorting.
    public static let uploaded = Field<Photo, Date?>("uploaded")
    /// When the photo was first fetched, kept by every later upsert.
    public static let firstFetchedField = Field<Photo, Date>("firstFetched")
    /// Whether the user marked it: marked photos outlive the snapshot of recent photos.
    public static let marked = Field<Photo, Bool>("marked")
    /// Photos stored before marks existed are unmarked.
    public static let columnDefaults = [ColumnDefault(marked, false)]
    /// The photographer who took it; deleting a photographer deletes their photos.
    public static let photographer = ToOne<Photo, Photographer>(ownerID, onDelete: .cascade)
    /// Where it was taken; deleting a place leaves its photos without one.
    public static let place = ToOne<Photo, Place>(placeID, onDelete: .nullify)
    /// The photo's references (the store indexes both keys).
    public static let relations: [any Relation<Photo>] = [photographer, place]
    /// The index of the newest-first listing.
    public static let indexes = [EntityIndex(uploaded)]

    /// Creates a photo from all its stored values.
    public init(
        id: String, title: String, ownerID: String, latitude: Double, longitude: Double,
        accuracy: Int?, placeID: String?, details: String, imageURL: String?, uploaded: Date?, firstFetched: Date,
        lastFetched: Date, marked: Bool = false
    ) {
        self.id = id
        self.title = title
        self.ownerID = ownerID
        self.latitude = latitude
        self.longitude = longitude
        self.accuracy = accuracy
        self.placeID = placeID
        self.details = details
        self.imageURL = imageURL
        self.uploaded = uploaded
        self.firstFetched = firstFetched
        self.lastFetched = lastFetched
        self.marked = marked
    }
}
