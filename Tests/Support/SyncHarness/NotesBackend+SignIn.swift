import FetchKitTesting
import Foundation

// Users on the notes backend: a token per user, each user's notes seen and written by that user
// only (as PocketBase's per-user rules do), and every request recorded with its user.
extension NotesBackend {
    /// A request that came while sign-in was required.
    public struct Call: Sendable, Hashable {
        /// The user whose token the request carried; `nil` for none, or one the server does not know.
        public var user: String?
        /// `GET`, `POST`, `PATCH`, `DELETE`.
        public var method: String
        /// The request's path.
        public var path: String
        /// The note a write names (its path's, or its body's `id` for a create); `nil` for a read.
        public var note: String?
        /// Whether the server refused the token (`401`).
        public var refused: Bool
    }

    /// Requires a token (`Authorization: Bearer <token>`) on every request from now on: a request
    /// without a known one gets `401`; each user lists, reads and writes only the notes they
    /// created (another user's note is `404`).
    ///
    /// - Parameter tokens: the users, by token.
    public func requireSignIn(tokens: [String: String]) {
        state.withLock { $0.tokens = tokens }
    }

    /// The requests that came while sign-in was required, in order.
    public var calls: [Call] { state.withLock { $0.calls } }

    /// The user who created a note, while sign-in was required.
    public func owner(of note: String) -> String? { state.withLock { $0.owners[note] } }

    /// Answers `request` as `handle` does for its user, or `401` when sign-in is required and the
    /// request's token is not a user's.
    func signedIn(_ request: RecordedRequest, _ handle: (String?) -> StubResponse) -> StubResponse {
        let header = request.header("Authorization") ?? ""
        let token = header.hasPrefix("Bearer ") ? String(header.dropFirst("Bearer ".count)) : header
        var note: String?
        if request.method == "POST", request.path == "/notes" {
            note = ((try? JSONSerialization.jsonObject(with: request.body)) as? [String: Any])?["id"] as? String
        } else if request.method != "GET", request.path.hasPrefix("/notes/") {
            note = String(request.path.dropFirst("/notes/".count))
        }
        let user: String?? = state.withLock { state in
            guard let tokens = state.tokens else { return .some(nil) }
            let user = tokens[token]
            state.calls.append(
                Call(user: user, method: request.method, path: request.path, note: note, refused: user == nil))
            return user.map { .some($0) } ?? .none
        }
        guard let user else { return .json(#"{"message":"Sign in to see the notes."}"#, status: 401) }
        return handle(user)
    }
}
