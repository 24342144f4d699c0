public import Persistence

/// A photographer of the `flickr` example: one row per Flickr account, referred to by
/// ``Photo/photographer``.
public struct Photographer: StoredEntity, Equatable {
    /// Flickr's NSID of the account, such as `85853333@N00`.
    public var id: String
    /// The display name Flickr last sent (the NSID when it sent none).
    public var name: String

    /// The display name, for filters and sorts (also through ``Photo/photographer``).
    public static let name = Field<Photographer, String>("name")

    /// The photographer's photos, newest first.
    public static let photos = ToMany<Photographer, Photo>(
        inverse: Photo.photographer, orderedBy: [Photo.uploaded.descending()])

    /// Creates a photographer.
    ///
    /// - Parameters:
    ///   - id: Flickr's NSID.
    ///   - name: the display name.
    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }
}
