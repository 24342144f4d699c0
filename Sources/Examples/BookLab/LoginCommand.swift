import ExampleSupport
import FetchKit
import Foundation
import Persistence
import Sync

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `booklab login --server <url> --token <token>` and `booklab logout [--keep all|changes|nothing]`:
/// each PocketBase user of this computer keeps a library of their own (``SyncAccounts``), and one
/// user's changes never go out with another's token.
///
/// After `login`, every command works on the user's library, kept beside the `--store` file, and
/// `sync` needs that user's token. After `logout`, the commands work on the library of no account
/// again. The token is never stored: `login` reads the user it belongs to from the server, and
/// `sync` is given it again.
struct LoginCommand {
    /// The library of no account: the accounts' libraries are kept beside it.
    let storeURL: URL

    /// What `logout --keep` names.
    static let choices: [String: SignOut] = ["all": .keepEverything, "changes": .keepUnsentWrites, "nothing": .clear]

    /// The folder of the accounts' libraries beside `url` (`booklab-accounts` beside `booklab.sqlite`).
    static func accountsFolder(beside url: URL) -> URL {
        url.deletingLastPathComponent().appending(
            path: url.deletingPathExtension().lastPathComponent + "-accounts", directoryHint: .isDirectory)
    }

    /// The accounts' libraries, in their folder beside `url` (made if missing).
    static func accounts(beside url: URL, seesOtherProcesses: Bool = false) throws -> SyncAccounts {
        let folder = accountsFolder(beside: url)
        do {
            return try SyncAccounts(folder: folder, client: SyncCommand.baseClient()) { url in
                try Library.openStore(at: url, seesOtherProcesses: seesOtherProcesses)
            }
        } catch {
            throw ExampleFailure.store("cannot open the accounts' libraries in \(folder.path)", error)
        }
    }

    /// The signed-in account's credentials: `token`, or none (a command that needs one says so).
    static func authenticator(token: String?) -> TokenAuthenticator {
        TokenAuthenticator(token: token, placement: .bearer) {
            throw ExampleFailure(
                "the sync server needs the signed-in user's token",
                fix: "sign in again and pass the new token with --token or BOOKLAB_SYNC_TOKEN")
        }
    }

    /// Signs in the user the token belongs to, as the server says.
    func login(server: URL, token: String) async throws {
        guard let claims = PocketBaseToken(token) else {
            throw ExampleFailure(
                "the token is not a PocketBase sign-in token",
                fix: "pass the token that auth-with-password answered, with --token or BOOKLAB_SYNC_TOKEN")
        }
        // The server says whose token it is before anything is made on this computer.
        let (user, email) = try await signedInUser(server: server, token: token, collection: claims.collectionID)
        let accounts = try Self.accounts(beside: storeURL)
        if let signedIn = accounts.signedIn, signedIn != user {
            throw ExampleFailure(
                "\(signedIn) is signed in on this computer", fix: "sign out first with 'booklab logout'")
        }
        let wasSignedIn = accounts.signedIn == user
        let library = try Library.open(at: storeURL, in: accounts, signingIn: user, token: token)
        let summary = try await library.summary()
        let waiting = await library.outbox.status.pendingCount
        print(
            (wasSignedIn ? "Already signed in as " : "Signed in as ") + (email.map { "\($0) (user \(user))" } ?? user)
                + ": booklab now keeps this user's library (\(summary.text)"
                + (waiting > 0 ? ", \(waiting) \(waiting == 1 ? "change" : "changes") not yet sent" : "") + ").")
        print("'booklab sync' needs this user's token; 'booklab logout' signs out.")
        accounts.current?.store.close()
    }

    /// Signs the signed-in user out, keeping `keep` of their library on this computer.
    func logout(keep: String) async throws {
        guard let choice = Self.choices[keep] else {
            throw UsageError(
                "'\(keep)' is not what logout keeps", fix: "write --keep all, --keep changes or --keep nothing")
        }
        let accounts = try Self.accounts(beside: storeURL)
        guard let user = accounts.signedIn else {
            print("No user is signed in: booklab keeps the library of no account.")
            return
        }
        // The library opened, so that the sign-out knows which of its rows the server keeps (needed
        // to keep only the changes; for the others, a library that cannot open signs out all the same).
        let library: Library?
        do {
            library = try Library.open(at: storeURL, in: accounts, signingIn: user, token: nil)
        } catch  where choice != .keepUnsentWrites {
            library = nil
        }
        let summary = try await library?.summary()
        let report: SignOutReport
        do {
            report = try await accounts.signOut(choice)
        } catch {
            throw ExampleFailure.store("cannot sign \(user) out", error)
        }
        let unsent = report.unsentWrites.map { "\($0) \($0 == 1 ? "change" : "changes")" }
        switch choice {
        case .keepEverything:
            let held = [summary?.text, (report.unsentWrites ?? 0) > 0 ? unsent.map { "\($0) not yet sent" } : nil]
                .compactMap { $0 }
            print(
                "Signed out of \(user). The library stays on this computer"
                    + (held.isEmpty ? "" : " (\(held.joined(separator: ", ")))")
                    + ": 'booklab login' with this user's token brings it back.")
        case .keepUnsentWrites:
            let one = report.unsentWrites == 1
            print(
                "Signed out of \(user). Kept the \(unsent ?? "changes") not yet sent, with the books "
                    + (one ? "it changes" : "they change")
                    + " and the books whose details (summary, cover, publisher) only this computer has; removed "
                    + "\(report.removedRows) synced \(report.removedRows == 1 ? "book" : "books"). After 'booklab login', "
                    + "the next sync sends the changes and brings the rest back.")
        case .clear:
            print(
                "Signed out of \(user) and removed the library from this computer"
                    + ((report.unsentWrites ?? 0) > 0 ? ", with \(unsent ?? "") never sent." : "."))
        }
        print("booklab now keeps the library of no account.")
    }

    /// The id (and email, when the server shows it) of the user the token belongs to, from the
    /// server (`auth-refresh`): a token the server does not take signs no one in.
    private func signedInUser(server: URL, token: String, collection: String) async throws -> (String, String?) {
        struct Refreshed: Decodable {
            struct Record: Decodable {
                var id: String
                var email: String?
            }
            var record: Record
        }
        let client = SyncCommand.baseClient(token: token)
        let request = PocketBaseRequest(
            server: server, path: "/api/collections/\(collection)/auth-refresh", method: .post)
        do {
            let record = try await client.fetch(request, extracting: .decode(Refreshed.self)).record
            return (record.id, record.email.flatMap { $0.isEmpty ? nil : $0 })
        } catch let error where [401, 403, 404].contains(error.statusCode ?? 0) {
            throw ExampleFailure(
                "the sync server refused the token", fix: "sign in again and pass the new token with --token")
        } catch {
            throw ExampleFailure(
                "cannot reach the sync server to check the token", fix: "check that it runs and the address (--server)")
        }
    }
}
