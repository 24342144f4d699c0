/// A record's file field: the name of a file the record holds, stored in the row as that name
/// (the way PocketBase sends a file field), or no file.
///
/// A file this device attached (``SyncedCollection/attach(_:)``) carries a name of its own until
/// the write that uploads it is acknowledged; the server's answer then names the stored file, and
/// that name replaces it in the row. Get the file's bytes with
/// ``SyncedCollection/file(_:of:)``: the attached copy, or a download from the server, kept on this
/// device.
///
/// ```swift
/// struct Photo: StoredEntity {
///     var id: String
///     var title: String
///     var image = SyncedFile.none      // a single file field; [SyncedFile] for a multiple one
///     var updated: String?
/// }
/// ```
///
/// It encodes as a string (`""` for no file) and decodes from a string or `null`.
public struct SyncedFile: Codable, Sendable, Hashable, CustomStringConvertible {
    /// The file's name: the server's name of a stored file, this device's name of a file not yet
    /// uploaded, or empty for no file.
    public let name: String

    /// A file by its name, as the server names it in a record.
    ///
    /// - Parameter name: the file's name (empty for no file).
    public init(name: String) {
        self.name = name
    }

    /// No file.
    public static let none = SyncedFile(name: "")

    /// Whether the field holds no file.
    public var isEmpty: Bool { name.isEmpty }

    /// The file's name (empty for no file).
    public var description: String { name }

    /// Decodes a file field: a string, or `null` for no file.
    ///
    /// - Parameter decoder: the decoder.
    public init(from decoder: any Decoder) throws {
        let value = try decoder.singleValueContainer()
        name = value.decodeNil() ? "" : try value.decode(String.self)
    }

    /// Encodes the file's name (`""` for no file).
    ///
    /// - Parameter encoder: the encoder.
    public func encode(to encoder: any Encoder) throws {
        var value = encoder.singleValueContainer()
        try value.encode(name)
    }
}
