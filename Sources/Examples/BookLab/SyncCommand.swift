import ExampleSupport
import FetchKit
import Foundation
import Persistence
import Sync

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `booklab sync --server <url> [--follow] [--token <token>]`: the library's two-way sync with
/// the `books` collection of a PocketBase server.
struct SyncCommand {
    let library: Library
    let server: URL
    let token: String?

    /// The server as printed: scheme, host and port only (never a user, a password or a query).
    var serverName: String {
        var parts = URLComponents()
        parts.scheme = server.scheme
        parts.host = server.host
        parts.port = server.port
        return parts.string ?? "the sync server"
    }

    /// Reads `--server` (or `BOOKLAB_SYNC_URL`) and `--token` (or `BOOKLAB_SYNC_TOKEN`).
    static func server(option: String?, environment: [String: String]) throws(UsageError) -> URL {
        guard let text = option ?? environment["BOOKLAB_SYNC_URL"], !text.isEmpty else {
            throw UsageError(
                "sync needs the server's address", fix: "write --server http://127.0.0.1:8090, or set BOOKLAB_SYNC_URL")
        }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            url.host != nil
        else {
            throw UsageError("'\(text)' is not a server address", fix: "write it as http://host:port")
        }
        return url
    }

    /// A client for the server: the token, when given, through the client's authenticator.
    static func baseClient(token: String? = nil) -> FetchClient {
        FetchClient { configuration in
            configuration.timeout = .seconds(15)
            // The outbox retries at the next sync; a couple of quick retries ride out a blip.
            configuration.retryPolicy = RetryPolicy(
                maximumRetries: 2, baseDelay: .milliseconds(200), maximumDelay: .seconds(2))
            if let token { configuration.authenticator = LoginCommand.authenticator(token: token) }
        }
    }

    /// The client the sync sends with: the signed-in user's (their token, their cache), or one
    /// with the token given.
    func client() throws -> FetchClient {
        guard let account = library.account else { return Self.baseClient(token: token) }
        guard let token else {
            throw ExampleFailure(
                "\(account.id) is signed in, so the sync needs their token",
                fix: "pass it with --token or BOOKLAB_SYNC_TOKEN, or sign out with 'booklab logout'")
        }
        // The account's changes go out with the account's token only.
        guard let user = PocketBaseToken(token)?.userID, user == account.id else {
            throw ExampleFailure(
                "the token is not \(account.id)'s, who is signed in",
                fix: "pass \(account.id)'s token, or 'booklab logout' and 'booklab login' with this one")
        }
        return account.client
    }

    /// One sync: the library's unacknowledged changes go up, the server's come down.
    ///
    /// A token is checked first (PocketBase's `auth-refresh`), and a library that synced signed
    /// in refuses to sync as a guest. Changes the server refused at an earlier sync are sent
    /// again: running `sync` is how the user says the cause is fixed (a token given, a rule
    /// changed).
    func run(follow: Bool) async throws {
        let conflicts = BookSync.Conflicts()
        let client = try client()
        if token != nil {
            try await checkToken(client)
            // Remembered before the sync: a run that then fails, or reports a refused change, has
            // still pulled as this user.
            try await rememberAccount()
        } else {
            try await refuseGuestOfSignedInLibrary()
        }
        let mirror = try Library.mirror(of: library.store, server: server, client: client, conflicts: conflicts)
        try await adoptUnsyncedBooks(mirror)
        Interrupts.keep("every change not yet sent stays queued for the next sync")
        let refused = try await library.store.context.read { tx in
            try tx.fetch(mirror.pendingWrites.filter(PendingWrite.state == .rejected))
        }
        for write in refused { try await mirror.retry(write) }
        if let refusal = try await syncOnce(mirror, conflicts: conflicts, quietWhenUnchanged: false), !follow {
            throw refusal
        }
        guard follow else { return }
        try await self.follow(mirror, conflicts: conflicts)
    }

    /// Checks the token with the server before anything is sent: PocketBase takes a token it
    /// cannot verify for a guest (an empty list, a refused write), never for a `401`.
    private func checkToken(_ client: FetchClient) async throws {
        guard let token, let claims = PocketBaseToken(token) else {
            throw ExampleFailure(
                "the token is not a PocketBase sign-in token",
                fix: "pass the token that auth-with-password answered, with --token or BOOKLAB_SYNC_TOKEN")
        }
        if let expires = claims.expires, expires < Date() {
            throw ExampleFailure(
                "the token expired at \(expires.formatted(.iso8601))",
                fix: "sign in again and pass the new token with --token")
        }
        do {
            _ = try await client.fetch(
                PocketBaseRequest(
                    server: server, path: "/api/collections/\(claims.collectionID)/auth-refresh", method: .post),
                extracting: .data)
        } catch let error where error.code == .authenticationFailed || [401, 403, 404].contains(error.statusCode ?? 0) {
            throw ExampleFailure(
                "the sync server at \(serverName) refused the token",
                fix: "sign in again and pass the new token with --token")
        } catch {
            throw failure(error)
        }
    }

    /// Stops a guest's sync of a library that last synced signed in with this server.
    private func refuseGuestOfSignedInLibrary() async throws {
        let name = serverName
        let account = try await library.store.context.read { tx in try tx.fetch(SyncSignIn.self, id: name) }
        guard account?.signedIn == true else { return }
        throw ExampleFailure(
            "the library synced with \(name) as a signed-in user; as a guest it would see none of its books",
            fix: "pass the token with --token or BOOKLAB_SYNC_TOKEN")
    }

    /// Remembers that this library syncs with this server signed in.
    private func rememberAccount() async throws {
        let account = SyncSignIn(id: serverName, signedIn: true)
        try await library.store.context.persist { tx in try tx.upsert(account) }
    }

    /// Books added before the library synced have no outbox entry: they are queued once.
    private func adoptUnsyncedBooks(_ mirror: SyncedCollection<LibraryBook>) async throws {
        try await library.store.context.persist { tx in
            let unsent = mirror.records(Query<LibraryBook>(where: LibraryBook.serverUpdatedField.isNil))
            for book in try tx.fetch(unsent).filter(\.writes.isEmpty).map(\.record) {
                try mirror.save(book, as: .create, in: tx)
            }
        }
    }

    /// One sync, its summary printed; returns the failure to report when the server refused a
    /// change for good (the other changes went through), throws when the sync failed.
    private func syncOnce(
        _ mirror: SyncedCollection<LibraryBook>, conflicts: BookSync.Conflicts, quietWhenUnchanged: Bool
    ) async throws -> ExampleFailure? {
        let report: SyncReport
        do {
            report = try await mirror.sync()
        } catch {
            throw failure(error)
        }
        return try await summarize(report, of: mirror, conflicts: conflicts, quietWhenUnchanged: quietWhenUnchanged)
    }

    /// Prints what a sync did; returns the failure to report when the server refused a change
    /// for good (the other changes went through).
    private func summarize(
        _ report: SyncReport, of mirror: SyncedCollection<LibraryBook>, conflicts: BookSync.Conflicts,
        quietWhenUnchanged: Bool
    ) async throws -> ExampleFailure? {
        for line in conflicts.lines { Terminal.say(line) }
        let rejected = try await library.store.context.read { tx in
            try tx.fetch(mirror.pendingWrites.filter(PendingWrite.state == .rejected))
        }
        let changed = report.writesSent + report.recordsApplied + report.recordsDeleted + report.conflicts > 0
        if changed || !quietWhenUnchanged || !rejected.isEmpty {
            let refused = rejected.isEmpty ? "" : " except \(count(rejected.count, "refused change"))"
            Terminal.say(
                "Synced with \(serverName)\(refused): pushed \(count(report.writesSent, "change")), "
                    + "pulled \(count(report.recordsApplied, "book"))"
                    + (report.recordsDeleted > 0 ? ", \(report.recordsDeleted) removed elsewhere" : "") + ".")
        }
        if let first = rejected.first {
            let reason = first.reason ?? "no reason given"
            // A cover the server refuses (its size or type) is fixed by another cover, or none.
            let cover = ["validation_file_size_limit", "validation_invalid_mime_type"].contains { reason.contains($0) }
            return ExampleFailure(
                "the server refused \(rejected.count == 1 ? "a change" : "\(rejected.count) changes"): "
                    + "\(ChangesCommand.summary(first)): \(reason)",
                fix: (cover
                    ? "give the book another cover ('booklab cover <n> <image>', an image of at most 2 MB) or none "
                        + "('booklab cover <n> --remove'); "
                    : token == nil ? "if the books collection needs a signed-in user, pass --token; " : "")
                    + "the change stays queued and is sent again at the next sync; 'booklab changes' lists "
                    + "it, 'booklab changes --drop <n>' drops it")
        }
        return nil
    }

    /// Follows the server's changes through the library (PocketBase's realtime API): each change
    /// made elsewhere pulls, and so does each reconnection. A run that changed something is
    /// summed up; a run that failed is reported, and following goes on.
    private func follow(_ mirror: SyncedCollection<LibraryBook>, conflicts: BookSync.Conflicts) async throws {
        var updates = mirror.statusUpdates.makeAsyncIterator()
        var finished = await updates.next()?.runsFinished ?? 0
        await mirror.start(following: .pocketBase(at: server, collections: ["books"]))
        Terminal.say("Following \(serverName) for changes (Ctrl-C stops)…")
        while let status = await updates.next() {
            if let error = status.followingError {
                await mirror.stop()
                throw failure(error)
            }
            guard status.runsFinished > finished, !status.isSyncing else { continue }
            finished = status.runsFinished
            if let report = status.lastReport {
                if let refusal = try await summarize(report, of: mirror, conflicts: conflicts, quietWhenUnchanged: true)
                {
                    Terminal.complain("booklab: \(refusal.description)")
                }
            } else if let error = status.error {
                let reported = failure(error)
                Terminal.complain("booklab: \((reported as? ExampleFailure)?.description ?? "\(reported)")")
            }
        }
    }

    /// The one line a failed sync ends with.
    private func failure(_ error: any Error) -> any Error {
        let fetch = (error as? SyncError)?.fetchError ?? (error as? FetchError)
        if let fetch, [.transportFailed, .connectionLost, .timedOut, .invalidURL].contains(fetch.code) {
            return ExampleFailure(
                "cannot reach the sync server at \(serverName)",
                fix: "check that it runs and the address; every change not yet sent stays queued")
        }
        if let fetch, fetch.code == .unacceptableStatus {
            return ExampleFailure(
                "the sync server at \(serverName) answered \(fetch.statusCode.map(String.init) ?? "an error")"
                    + (fetch.bodyExcerpt.map { ": \($0)" } ?? ""),
                fix: "check the address and the books collection; every change not yet sent stays queued")
        }
        if let sync = error as? SyncError {
            return ExampleFailure(
                "sync stopped: \(sync.message)", fix: "every change not yet sent stays queued for the next sync")
        }
        return error
    }

    private func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
}
