public import FetchKit
public import Foundation
import Locking
public import Persistence

/// The accounts that sign in on this device, each with a store of its own: its synced rows, its
/// outbox and its cursors belong to it, and its writes go out only with its credentials.
///
/// ```swift
/// let accounts = try SyncAccounts(folder: appSupport, client: client) { url in
///     try ObjectStore(at: url, entities: [Book.self] + SyncSchema.entities)
/// }
/// let alice = try accounts.signIn(userID, authenticator: TokenAuthenticator(token: token) { try await renew() })
/// let books = try SyncedCollection(remote, store: alice.store, client: alice.client)
/// // …
/// try await accounts.signOut(.keepEverything)   // Alice's unsent writes wait for her return
/// ```
///
/// - **One account at a time.** ``signIn(_:authenticator:)`` while another account is signed in
///   (in this launch or an earlier one that never signed out) is refused: the app first chooses
///   what ``signOut(_:)`` keeps of the other account's data.
/// - **Credentials.** An account's ``SyncAccount/client`` is the app's client with the account's
///   authenticator and an HTTP cache of its own; a collection made on the account's store with
///   another client is refused. A sign-out cancels the account's requests in flight, stops its
///   collections (waiting for a run in progress) and closes its store; its client sends nothing
///   more. So one account's queued writes never go with another's token, and a switch causes
///   no `401`.
/// - **Sign-out.** The app chooses what stays (``SignOut``): everything, the unsent writes only,
///   or nothing. Nothing is lost unless the app chooses ``SignOut/clear``.
/// - **Files.** `folder` holds a folder per account (its store, `store.sqlite`, and its HTTP cache)
///   and the name of the signed-in account; no token is ever written. Processes that share a
///   folder (a command-line tool's, as booklab's) see the signed-in account at their next
///   sign-in; a sign-out stops only its own process's collections (another process that has the
///   store open keeps it until it ends).
public final class SyncAccounts: Sendable {
    /// The folder that holds the accounts' stores.
    public let folder: URL
    /// The app's client: each account's client is made from its configuration.
    public let client: FetchClient
    private let openStore: @Sendable (URL) throws -> ObjectStore
    private let state = Locked<State>(.idle)

    private enum State: Sendable {
        case idle
        case signingIn
        case open(SyncAccount)
        case signingOut
    }

    /// Keeps accounts in `folder` (created if missing).
    ///
    /// - Parameters:
    ///   - folder: where the accounts' folders go.
    ///   - client: the app's client; each account's client has its configuration, with the
    ///     account's authenticator and cache.
    ///   - openStore: opens (or creates) an account's store at the URL given, with the app's
    ///     entities, ``SyncSchema/entities`` and migrations.
    /// - Throws: ``SyncError`` with ``SyncError/Code-swift.struct/storeFailed`` when the folder
    ///   cannot be made.
    public init(
        folder: URL, client: FetchClient, openStore: @escaping @Sendable (URL) throws -> ObjectStore
    ) throws(SyncError) {
        self.folder = folder
        self.client = client
        self.openStore = openStore
        do {
            try FileManager.default.createDirectory(at: accountsFolder, withIntermediateDirectories: true)
            // A clear that a kill interrupted: its folder was already moved out of the accounts.
            for leftover
                in (try? FileManager.default.contentsOfDirectory(at: removingFolder, includingPropertiesForKeys: nil))
                ?? []
            {
                try? FileManager.default.removeItem(at: leftover)
            }
        } catch {
            throw SyncError(
                .storeFailed, collection: "",
                "The accounts folder \(folder.path) could not be made (\(error)); check its parent's permissions.")
        }
    }

    // MARK: What is on the device

    /// The account signed in on this device: in this launch, or in an earlier one that did not
    /// sign out (sign it in again, or sign it out). `nil` when none is.
    public var signedIn: String? {
        guard let data = try? Data(contentsOf: markerFile) else { return nil }
        let id = String(decoding: data, as: UTF8.self)
        return id.isEmpty ? nil : id
    }

    /// The account signed in in this launch, with its store and client.
    public var current: SyncAccount? {
        state.withLock { state in
            if case .open(let account) = state { return account }
            return nil
        }
    }

    /// The accounts whose data this device keeps (signed in, or signed out keeping some), sorted.
    public var savedAccounts: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: accountsFolder.path)) ?? []
        return names.compactMap(FolderNames.id(ofFolder:)).sorted()
    }

    // MARK: Signing in and out

    /// Signs `id` in: opens its store (made at its first sign-in) and makes its client.
    ///
    /// Its unsent writes from an earlier session are in its store: start its collections (or run
    /// their `sync()`) to send them, with its credentials. The store opens on the calling thread,
    /// its migrations included: sign in off the main thread when a store may need a long one.
    ///
    /// - Parameters:
    ///   - id: the account's stable identity (the user's id on the server, not a name the user may
    ///     change); any text of 1 to 80 bytes.
    ///   - authenticator: the account's credentials; the account's client sends every request with
    ///     them. Give each account its own.
    /// - Returns: the account, with its store and client.
    /// - Throws: ``SyncError``: ``SyncError/Code-swift.struct/misuse`` while another account is
    ///   signed in (sign it out first), for an empty or longer identity, or a store that belongs to
    ///   another account; ``SyncError/Code-swift.struct/storeFailed`` when the store cannot open.
    @discardableResult
    public func signIn(_ id: String, authenticator: TokenAuthenticator) throws(SyncError) -> SyncAccount {
        guard !id.isEmpty, id.utf8.count <= 80 else {
            throw SyncError(
                .misuse, collection: "",
                "An account's identity is 1 to 80 bytes of text (the user's id on the server); this one has \(id.utf8.count)."
            )
        }
        let refusal: String? = state.withLock { state in
            switch state {
            case .idle:
                if let other = signedIn, !other.utf8.elementsEqual(id.utf8) {
                    return "The account \(other) signed in on this device and never signed out: sign it out first "
                        + "(signOut(_:)), choosing what to keep of its data, then sign \(id) in."
                }
                state = .signingIn
                return nil
            case .open(let account):
                return account.id.utf8.elementsEqual(id.utf8)
                    ? "The account \(id) is signed in already: use SyncAccounts.current."
                    : "The account \(account.id) is signed in: sign it out first (signOut(_:)), choosing what to keep of "
                        + "its data, then sign \(id) in."
            case .signingIn, .signingOut:
                return "Another sign-in or sign-out is in progress: wait for it, then sign \(id) in."
            }
        }
        if let refusal { throw SyncError(.misuse, collection: "", refusal) }
        do throws(SyncError) {
            let account = try open(id, authenticator: authenticator)
            account.register()
            state.withLock { $0 = .open(account) }
            return account
        } catch {
            state.withLock { $0 = .idle }
            throw error
        }
    }

    /// Signs the signed-in account out, keeping what `choice` says of its data.
    ///
    /// First the account's client refuses every new request and cancels those in flight (a write
    /// whose answer is lost is sent again, with its key, at the account's return); then its
    /// collections stop, and a run in progress ends; then `choice` applies and the store closes.
    ///
    /// An account signed in by an earlier launch (``signedIn``) and not in this one signs out too:
    /// ``SignOut/keepEverything`` and ``SignOut/clear`` need nothing open; ``SignOut/keepUnsentWrites``
    /// needs the account signed in, with its collections made, to tell its synced rows.
    ///
    /// - Parameter choice: what to keep of the account's data on this device.
    /// - Returns: what the sign-out kept, or discarded.
    /// - Throws: ``SyncError``: ``SyncError/Code-swift.struct/misuse`` when no account is signed in,
    ///   or for ``SignOut/keepUnsentWrites`` while the store holds a collection no live
    ///   ``SyncedCollection`` of the account describes (nothing changes; the account stays signed
    ///   in); ``SyncError/Code-swift.struct/storeFailed`` when the store cannot be changed (nothing
    ///   is removed and the account stays signed in, but its collections are stopped: start them
    ///   again), or when a clear cannot remove the folder (the store is closed and the account
    ///   stays signed in as by an earlier launch: a later sign-out clears it).
    @discardableResult
    public func signOut(_ choice: SignOut) async throws(SyncError) -> SignOutReport {
        let taken: Result<SyncAccount?, SyncError> = state.withLock { state in
            switch state {
            case .open(let account):
                state = .signingOut
                return .success(account)
            case .idle where signedIn != nil:
                state = .signingOut
                return .success(nil)
            case .idle:
                return .failure(SyncError(.misuse, collection: "", "No account is signed in, so none can sign out."))
            case .signingIn, .signingOut:
                return .failure(
                    SyncError(.misuse, collection: "", "Another sign-in or sign-out is in progress: wait for it."))
            }
        }
        guard let account = try taken.get() else { return try signOutEarlierLaunch(choice) }
        // What the choice needs is checked before anything stops: a refused sign-out changes nothing.
        do throws(SyncError) {
            if choice == .keepUnsentWrites { try await Self.checkDescribed(account) }
        } catch {
            state.withLock { $0 = .open(account) }
            throw error
        }
        let collections = account.collections(closing: true)
        account.gate.close()
        account.client.cancelAll()
        for collection in collections { await collection.stop() }
        for collection in collections { await collection.idleForSignOut() }
        let report: SignOutReport
        do throws(SyncError) {
            report = try await Self.apply(choice, to: account, collections)
        } catch {
            // Nothing was removed: the account stays signed in, its collections stopped.
            account.gate.reopen()
            _ = account.collections(closing: false)
            state.withLock { $0 = .open(account) }
            throw error
        }
        account.store.close()
        account.unregister()
        defer { state.withLock { $0 = .idle } }
        // A removal that fails leaves the account signed in as by an earlier launch: a later
        // sign-out clears it.
        let removal = choice == .clear ? try remove(account.folder, of: account.id) : nil
        forgetSignIn()
        removal?()
        return report
    }

    /// Removes what this device keeps of an account that is not signed in (its store and cache):
    /// "remove this account from this device", for an account that signed out keeping some.
    ///
    /// - Parameter id: the account, one of ``savedAccounts``.
    /// - Returns: the writes the server had not acknowledged that went with it; `nil` when its
    ///   store could not be opened to count them (it is removed all the same).
    /// - Throws: ``SyncError``: ``SyncError/Code-swift.struct/misuse`` for an account the device
    ///   keeps no data of, for the signed-in account (sign it out with ``SignOut/clear``), or during
    ///   a sign-in or sign-out;
    ///   ``SyncError/Code-swift.struct/storeFailed`` when its folder cannot be removed.
    @discardableResult
    public func removeSavedAccount(_ id: String) throws(SyncError) -> Int? {
        let busy = state.withLock { state in
            if case .signingIn = state { true } else if case .signingOut = state { true } else { false }
        }
        guard savedAccounts.contains(where: { $0.utf8.elementsEqual(id.utf8) }) else {
            throw SyncError(
                .misuse, collection: "",
                "No account \(id) has data on this device (SyncAccounts.savedAccounts lists those that do).")
        }
        let signedIn = current?.id ?? self.signedIn
        guard !busy, signedIn.map({ !$0.utf8.elementsEqual(id.utf8) }) ?? true else {
            throw SyncError(
                .misuse, collection: "",
                busy
                    ? "A sign-in or sign-out is in progress: wait for it, then remove \(id)."
                    : "\(id) is signed in: sign it out with SignOut.clear to remove its data.")
        }
        let folder = accountFolder(id)
        let unsent = unsentWrites(in: Self.storeFile(in: folder))
        try remove(folder, of: id)()
        return unsent
    }

    // MARK: Internals

    private var accountsFolder: URL { folder.appending(path: "accounts", directoryHint: .isDirectory) }
    private var removingFolder: URL { folder.appending(path: "removing", directoryHint: .isDirectory) }
    private var markerFile: URL { folder.appending(path: "signed-in", directoryHint: .notDirectory) }

    /// An account's store file, in its folder.
    private static func storeFile(in folder: URL) -> URL {
        folder.appending(path: "store.sqlite", directoryHint: .notDirectory)
    }

    private func accountFolder(_ id: String) -> URL {
        accountsFolder.appending(path: FolderNames.name(of: id), directoryHint: .isDirectory)
    }

    private func open(_ id: String, authenticator: TokenAuthenticator) throws(SyncError) -> SyncAccount {
        let folder = accountFolder(id)
        let storeURL = Self.storeFile(in: folder)
        let store: ObjectStore
        let made = !FileManager.default.fileExists(atPath: folder.path)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            store = try openStore(storeURL)
        } catch {
            // A folder this sign-in made holds nothing of the account's: it is not kept.
            if made { try? FileManager.default.removeItem(at: folder) }
            throw SyncError(
                .storeFailed, collection: "", "The store of the account \(id) could not be opened: \(error)",
                persistenceError: error as? PersistenceError)
        }
        guard store.url?.standardizedFileURL.path == storeURL.standardizedFileURL.path else {
            store.close()
            throw SyncError(
                .misuse, collection: "",
                "SyncAccounts' openStore must open the store at the URL it is given (\(storeURL.path)); it opened "
                    + "\(store.url?.path ?? "a store in memory").")
        }
        do {
            let owner: String? = try store.context.persistAndWait { tx in
                if let stamp = try tx.first(Query<SyncAccountStamp>()) { return stamp.id }
                try tx.insert(SyncAccountStamp(id: id))
                return nil
            }
            if let owner, !owner.utf8.elementsEqual(id.utf8) {
                store.close()
                throw SyncError(
                    .misuse, collection: "",
                    "The store at \(storeURL.path) belongs to the account \(owner), not \(id): it was moved or copied "
                        + "by hand; move it back, or remove it.")
            }
            let gate = AccountGate(account: id)
            var configuration = client.configuration
            configuration.authenticator = authenticator
            configuration.adapters = [gate] + configuration.adapters
            if let cache = configuration.cache {
                configuration.cache =
                    cache.directory == nil
                    ? HTTPCache(maximumBytes: cache.maximumBytes, offlinePolicy: cache.offlinePolicy)
                    : try HTTPCache(
                        directory: folder.appending(path: "cache", directoryHint: .isDirectory),
                        maximumBytes: cache.maximumBytes, offlinePolicy: cache.offlinePolicy)
            }
            try Data(id.utf8).write(to: markerFile, options: .atomic)
            return SyncAccount(
                id: id, store: store, client: FetchClient(configuration: configuration), folder: folder, gate: gate)
        } catch let error as SyncError {
            throw error
        } catch {
            store.close()
            throw SyncError(
                .storeFailed, collection: "", "The account \(id) could not be signed in: \(error)",
                persistenceError: error as? PersistenceError)
        }
    }

    /// Refuses a sign-out keeping the unsent writes while the store holds a collection that no
    /// live collection of the account describes: its rows could not be told apart.
    private static func checkDescribed(_ account: SyncAccount) async throws(SyncError) {
        let described = Set(account.collections.map(\.collectionName))
        let missing: Set<String>
        do {
            missing = try await account.store.context.read { tx in
                try AccountData.collectionNames(in: tx).subtracting(described)
            }
        } catch {
            throw SyncError(
                .storeFailed, collection: "", "The store of \(account.id) could not be read to sign it out: \(error)",
                persistenceError: error as? PersistenceError)
        }
        guard missing.isEmpty else {
            throw SyncError(
                .misuse, collection: missing.sorted()[0],
                "The store of \(account.id) holds the collections \(missing.sorted().joined(separator: ", ")), which no "
                    + "synced collection of the account describes now: make them on the account's store before signing "
                    + "out keeping its unsent writes, so their rows can be told apart. Nothing was changed.")
        }
    }

    /// Applies `choice` to a signed-out account's open store: for ``SignOut/keepUnsentWrites``,
    /// the rows removed and every pull started over in one transaction; the unsent writes counted
    /// (by a read for the other choices, `nil` when it fails: they need no write to go on).
    private static func apply(
        _ choice: SignOut, to account: SyncAccount, _ collections: [any AccountMember]
    ) async throws(SyncError) -> SignOutReport {
        guard choice == .keepUnsentWrites else {
            let unsent = try? await account.store.context.read { tx in try OutboxTable.notAcknowledgedCount(in: tx) }
            return SignOutReport(account: account.id, choice: choice, unsentWrites: unsent, removedRows: 0)
        }
        do {
            return try await account.store.context.persist { tx in
                let kept = try collections.map { try $0.keptAtSignOut(in: tx) }
                let removed = try AccountData.forgetSyncedRows(kept, linkTables: account.store.linkTables, in: tx)
                for collection in collections { try collection.restartPulls(in: tx) }
                return SignOutReport(
                    account: account.id, choice: choice, unsentWrites: try OutboxTable.notAcknowledgedCount(in: tx),
                    removedRows: removed)
            }
        } catch let error as SyncError {
            throw error
        } catch {
            throw SyncError(
                .storeFailed, collection: "", "The sign-out of \(account.id) could not change its store: \(error)",
                persistenceError: error as? PersistenceError)
        }
    }

    /// Signs out the account an earlier launch signed in, without opening it but to count what
    /// ``SignOut/clear`` discards.
    private func signOutEarlierLaunch(_ choice: SignOut) throws(SyncError) -> SignOutReport {
        defer { state.withLock { $0 = .idle } }
        guard let id = signedIn else { throw SyncError(.misuse, collection: "", "No account is signed in.") }
        var report = SignOutReport(account: id, choice: choice, unsentWrites: 0, removedRows: 0)
        switch choice {
        case .keepEverything:
            break
        case .keepUnsentWrites:
            throw SyncError(
                .misuse, collection: "",
                "The account \(id) was signed in by an earlier launch: sign it in again and make its collections, so "
                    + "the sign-out can tell its synced rows from its unsent writes; or keep everything, or clear.")
        case .clear:
            let folder = accountFolder(id)
            let storeURL = Self.storeFile(in: folder)
            report.unsentWrites = unsentWrites(in: storeURL)
            let removal = try remove(folder, of: id)
            forgetSignIn()
            removal()
            return report
        }
        forgetSignIn()
        return report
    }

    /// The writes of the store at `url` the server has not acknowledged: counted when the store
    /// opens, `nil` when it does not (a store that cannot open is no reason to keep what the app
    /// asked to remove).
    private func unsentWrites(in url: URL) -> Int? {
        guard FileManager.default.fileExists(atPath: url.path) else { return 0 }
        return (try? openStore(url)).flatMap { store in
            defer { store.close() }
            return try? store.context.readAndWait { tx in try OutboxTable.notAcknowledgedCount(in: tx) }
        }
    }

    /// Moves an account's folder out of the accounts at once (a kill after it leaves no half
    /// store), returning what deletes it.
    private func remove(_ folder: URL, of id: String) throws(SyncError) -> @Sendable () -> Void {
        guard FileManager.default.fileExists(atPath: folder.path) else { return {} }
        let trash = removingFolder.appending(path: UUID().uuidString, directoryHint: .isDirectory)
        do {
            try FileManager.default.createDirectory(at: removingFolder, withIntermediateDirectories: true)
            try FileManager.default.moveItem(at: folder, to: trash)
        } catch {
            throw SyncError(
                .storeFailed, collection: "",
                "The data of \(id) could not be removed (\(error)); check the permissions of \(folder.path).")
        }
        return { try? FileManager.default.removeItem(at: trash) }
    }

    private func forgetSignIn() {
        try? FileManager.default.removeItem(at: markerFile)
    }
}
