import FetchKit
import FetchKitTesting
import Foundation
import Locking
import TestSupport
import Testing

/// JWTs refreshed before they expire: a server that answers an expired token as a guest (200 and
/// nothing) gives no `401` to refresh on.
@Suite struct TokenExpiryTests {
    /// A JWT (unsigned: its payload is what counts here) expiring at `expiry`.
    static func jwt(expiring expiry: Date, subject: String) -> String {
        func part(_ object: [String: Any]) -> String {
            let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
            return data.base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }
        return part(["alg": "HS256", "typ": "JWT"]) + "." + part(["exp": Int(expiry.timeIntervalSince1970), "id": subject])
            + ".c2lnbmF0dXJl"
    }

    /// A server that answers every request 200, as a guest when the token is not `accepted`.
    static func guestServer(accepting accepted: Locked<String>) throws -> StubServer {
        let server = StubServer()
        try server.start()
        server.route("GET", "/items") { request in
            request.header("Authorization") == "Bearer \(accepted.current)"
                ? .json(#"{"items":[1,2,3]}"#) : .json(#"{"items":[]}"#)
        }
        return server
    }

    @Test func aJWTThatExpiresWithinSecondsIsRefreshedBeforeItIsSent() async throws {
        let fresh = Self.jwt(expiring: Date().addingTimeInterval(3600), subject: "fresh")
        let accepted = Locked(fresh)
        let server = try Self.guestServer(accepting: accepted)
        defer { server.stop() }
        let expiring = Self.jwt(expiring: Date().addingTimeInterval(2), subject: "old")
        let authenticator = TokenAuthenticator(token: expiring) { fresh }
        let client = FetchClient { $0.authenticator = authenticator }
        let body = try await client.fetch(TestEndpoint(baseURL: server.baseURL, path: "/items"), extracting: .string)
        #expect(body == #"{"items":[1,2,3]}"#)
        #expect(authenticator.refreshCount == 1)
        #expect(server.receivedRequests.map { $0.header("Authorization") } == ["Bearer \(fresh)"])
        // The fresh token is sent as it is.
        _ = try await client.fetch(TestEndpoint(baseURL: server.baseURL, path: "/items"), extracting: .string)
        #expect(authenticator.refreshCount == 1)
    }

    @Test func tokensThatAreNoJWTsOrHaveNoExpiryAreSentAsTheyAre() async throws {
        for token in ["opaque-token", "a.b.c", Self.jwt(expiring: Date().addingTimeInterval(3600), subject: "x")] {
            let accepted = Locked(token)
            let server = try Self.guestServer(accepting: accepted)
            defer { server.stop() }
            let authenticator = TokenAuthenticator(token: token) { "never" }
            let client = FetchClient { $0.authenticator = authenticator }
            let body = try await client.fetch(TestEndpoint(baseURL: server.baseURL, path: "/items"), extracting: .string)
            #expect(body == #"{"items":[1,2,3]}"#, "\(token)")
            #expect(authenticator.refreshCount == 0, "\(token)")
        }
    }
}
