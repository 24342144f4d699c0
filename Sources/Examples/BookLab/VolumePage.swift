import Decoding

/// One page of `GET /volumes`: a missing `items` key (no match, or a page past the end) is an
/// empty page, not an error.
struct VolumePage: Decodable, Sendable {
    enum CodingKeys: String, CodingKey {
        case totalItems
        case volumes = "items"
    }

    /// What the API reports as the match count: an estimate that changes from page to page.
    var totalItems: Int?
    @DefaultEmpty var volumes: [Volume]
}
