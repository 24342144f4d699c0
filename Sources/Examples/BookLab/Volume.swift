import Decoding
import Foundation

/// One Google Books volume, flattened by path keys: the decoding reads nested fields by their
/// paths, with no hand-written `init(from:)` or `nestedContainer` calls.
///
/// Every field but the id is optional: real volumes lack authors, image links, identifiers and
/// even publishers, and a field is nil when any object on its path is missing.
struct Volume: Decodable, Sendable {
    enum CodingKeys: String, CodingKey {
        case id
        case title = "volumeInfo.title"
        case authors = "volumeInfo.authors"
        case publisher = "volumeInfo.publisher"
        case publishedDate = "volumeInfo.publishedDate"
        case summary = "volumeInfo.description"
        case isbn13 = "volumeInfo.industryIdentifiers[type=ISBN_13].identifier"
        case thumbnailURL = "volumeInfo.imageLinks.smallThumbnail"
    }

    /// The volume id, such as `jauKDQAAQBAJ`.
    var id: String
    /// The title (the API always sends one in practice; a volume without is shown as untitled).
    var title: String?
    /// The authors joined with `", "` while decoding.
    @TransformedIfPresent<JoinedStrings> var authors: String?
    var publisher: String?
    /// `1862`, `2016-10` or `2016-10-14`, kept as the API wrote it.
    var publishedDate: String?
    var summary: String?
    /// The identifier of the `industryIdentifiers` element whose `type` is `ISBN_13`.
    var isbn13: String?
    var thumbnailURL: URL?
}
