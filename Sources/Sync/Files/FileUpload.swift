public import Foundation

/// One file a write carries to the server: the record's file field, the name the file goes under,
/// and the copy on this device it is read from (streamed, never loaded whole).
///
/// ``FileFields/upload`` turns a write's request into one that carries its uploads; the
/// PocketBase preset (``FileFields/pocketBase(_:collection:at:)``) sends them as parts of a
/// multipart form.
public struct FileUpload: Sendable, Hashable {
    /// The file field's name (its coding key in the record).
    public let field: String
    /// The file's name on this device (``SyncedFile/name``), sent as the part's filename.
    public let name: String
    /// The attached copy the bytes are read from.
    public let file: URL
    /// The part's content type, worked out from the name's extension
    /// (`application/octet-stream` when it names no known type).
    public let contentType: String

    /// An upload of `file` in `field` under `name`.
    ///
    /// - Parameters:
    ///   - field: the file field's name.
    ///   - name: the file's name, sent as the part's filename.
    ///   - file: where the bytes are on this device.
    ///   - contentType: the part's content type.
    public init(field: String, name: String, file: URL, contentType: String) {
        self.field = field
        self.name = name
        self.file = file
        self.contentType = contentType
    }
}
