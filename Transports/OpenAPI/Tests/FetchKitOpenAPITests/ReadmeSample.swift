import FetchKit
import FetchKitOpenAPI
import Foundation
import NotesAPI

// The README's sample (section "Generated OpenAPI clients"), as printed, with the notes API's
// generated `Client` and `Servers`; and the transport's doc-comment sample. Compiled, not run.

enum ReadmeSample {
    static func make() throws -> Client {
        let fetch = FetchClient { $0.cache = HTTPCache() }
        let notes = Client(serverURL: try Servers.Server1.url(), transport: FetchClientTransport(client: fetch))
        return notes
    }

    struct Session: Sendable {
        func renewedToken() async throws -> String { "token" }
    }

    static func documented(session: Session) -> Client {
        let fetch = FetchClient { configuration in
            configuration.cache = HTTPCache()
            configuration.authenticator = TokenAuthenticator { try await session.renewedToken() }
        }
        let notes = Client(
            serverURL: URL(string: "https://notes.example.com/v1")!,
            transport: FetchClientTransport(client: fetch, streamedOperations: ["streamEvents"]))
        return notes
    }
}
