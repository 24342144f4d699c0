import Foundation
import Persistence

/// How the library last synced with a server: as a signed-in user or as a guest.
///
/// PocketBase answers a guest with an empty list where the collection's rules need a user,
/// never with `401`, so a guest's sync of a library that synced signed in would take every
/// book for deleted on the server. Remembering the sign-in per server lets that sync stop
/// with a line asking for the token. The token itself is never stored.
struct SyncSignIn: StoredEntity {
    /// The server, as printed (scheme, host and port).
    var id: String
    /// Whether the last successful sync was signed in.
    var signedIn: Bool

    /// The table's name since the first booklab that synced.
    static let entityName = "SyncAccount"
}

/// The claims of a PocketBase sign-in token (a JWT) that the sync checks before using it.
struct PocketBaseToken: Sendable {
    /// The auth collection the user belongs to (`_pb_users_auth_` for `users`).
    let collectionID: String
    /// The user's record id.
    let userID: String?
    /// When the token expires.
    let expires: Date?

    /// Reads the token's claims, without checking its signature (the server does).
    ///
    /// - Parameter token: the token `auth-with-password` answered.
    /// - Returns: the claims, or nil when the text is not a PocketBase sign-in token.
    init?(_ token: String) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        var payload = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        payload += String(repeating: "=", count: (4 - payload.count % 4) % 4)
        struct Claims: Decodable {
            var collectionId: String
            var id: String?
            var exp: Double?
            var type: String?
        }
        guard let data = Data(base64Encoded: payload),
            let claims = try? JSONDecoder().decode(Claims.self, from: data),
            claims.type == nil || claims.type == "auth",
            !claims.collectionId.isEmpty,
            claims.collectionId.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" })
        else { return nil }
        collectionID = claims.collectionId
        userID = claims.id
        expires = claims.exp.map { Date(timeIntervalSince1970: $0) }
    }
}
