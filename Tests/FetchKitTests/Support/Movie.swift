/// The movie the client tests decode.
struct Movie: Codable, Equatable, Sendable {
    var id: Int
    var title: String
    var popularity: Double
}
