public import Foundation
public import Persistence
public import Sync

/// The file tests' entity: a record of a ``PhotosBackend`` with one file field (`image`) and a
/// field of several files (`pages`).
public struct Photo: StoredEntity, Hashable {
    /// The id (15 characters of `[a-z0-9]`, chosen on the device).
    public var id: String
    /// The title.
    public var title: String
    /// The image.
    public var image: SyncedFile
    /// The pages.
    public var pages: [SyncedFile]
    /// The server's `updated`, `nil` until the server has the record.
    public var updated: String?

    /// A photo.
    public init(id: String, title: String, image: SyncedFile = .none, pages: [SyncedFile] = [], updated: String? = nil)
    {
        self.id = id
        self.title = title
        self.image = image
        self.pages = pages
        self.updated = updated
    }
}

/// The photos collection of a ``PhotosBackend``, described by the PocketBase preset.
public enum PhotosAPI {
    /// The description.
    ///
    /// - Parameter base: the backend's URL.
    /// - Returns: the collection.
    public static func collection(at base: URL) -> RemoteCollection<Photo> {
        .pocketBase("photos", at: base, version: \Photo.updated, pageSize: 50, files: ["image", "pages"])
    }
}
