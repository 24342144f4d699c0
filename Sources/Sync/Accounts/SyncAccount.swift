public import FetchKit
import Foundation
import Locking
public import Persistence

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An account signed in on this device (``SyncAccounts/signIn(_:authenticator:)``): its own store,
/// and a client that sends with its credentials only.
///
/// Make the account's synced collections on its ``store`` with its ``client``: a collection made
/// on an account's store with any other client is refused, so the account's queued writes never
/// travel with another account's credentials.
///
/// ```swift
/// let alice = try accounts.signIn(userID, authenticator: TokenAuthenticator(token: token) { try await renew() })
/// let books = try SyncedCollection(remote, store: alice.store, client: alice.client)
/// ```
public final class SyncAccount: Sendable, CustomStringConvertible {
    /// The account's identity, as the app's sign-in gives it (a user id).
    public let id: String
    /// The account's store: its synced rows, its outbox, its cursors.
    public let store: ObjectStore
    /// The app's client with the account's authenticator, its own HTTP cache (an answer cached
    /// for one account is never served to another) and a gate that refuses every request once
    /// the account signed out. Its transport is the app's client's: keep that one without
    /// cookies or stored credentials (FetchKit's default session has none), so nothing of one
    /// account's travels with another's requests.
    public let client: FetchClient
    /// The account's folder (its store and cache).
    let folder: URL
    let gate: AccountGate
    /// The synced collections made on the store, held without owning them, and whether a
    /// sign-out took them (none is taken after).
    private let members = Locked<(list: [Member], closed: Bool)>(([], false))

    private struct Member: Sendable {
        weak var collection: (any AccountMember)?
    }

    init(id: String, store: ObjectStore, client: FetchClient, folder: URL, gate: AccountGate) {
        self.id = id
        self.store = store
        self.client = client
        self.folder = folder
        self.gate = gate
    }

    /// Whether the account is signed in: false once ``SyncAccounts/signOut(_:)`` began.
    public var isSignedIn: Bool { gate.isOpen }

    /// `SyncAccount(<id>, signed in)`.
    public var description: String { "SyncAccount(\(id), \(isSignedIn ? "signed in" : "signed out"))" }

    // MARK: The accounts of stores

    /// The signed-in accounts, by their store.
    private static let byStore = Locked<[ObjectIdentifier: WeakAccount]>([:])

    private struct WeakAccount: Sendable {
        weak var account: SyncAccount?
    }

    /// The account `store` belongs to, while it is signed in.
    static func owning(_ store: ObjectStore) -> SyncAccount? {
        byStore.withLock { $0[ObjectIdentifier(store)]?.account }
    }

    /// The signed-in account whose client `client` is.
    static func using(_ client: FetchClient) -> SyncAccount? {
        byStore.withLock { accounts in accounts.values.lazy.compactMap(\.account).first { $0.client === client } }
    }

    /// Makes the account the owner of its store.
    func register() {
        Self.byStore.withLock { $0[ObjectIdentifier(store)] = WeakAccount(account: self) }
    }

    /// Ends the account's ownership of its store.
    func unregister() {
        Self.byStore.withLock { accounts in
            if accounts[ObjectIdentifier(store)]?.account === self { accounts[ObjectIdentifier(store)] = nil }
        }
    }

    /// Takes a collection made on the account's store: refused when it sends with another client
    /// (its writes would go with other credentials), or once the account's sign-out began.
    func adopt(_ collection: some AccountMember, client: FetchClient) throws(SyncError) {
        guard client === self.client else {
            throw SyncError(
                .misuse, collection: collection.collectionName,
                "The store of \(collection.collectionName) is the store of the account \(id): sync it with that account's "
                    + "client (SyncAccount.client), so its writes go only with the account's credentials.")
        }
        let adopted = members.withLock { members in
            guard !members.closed else { return false }
            members.list.removeAll { $0.collection == nil }
            members.list.append(Member(collection: collection))
            return true
        }
        guard adopted else {
            throw SyncError(
                .misuse, collection: collection.collectionName,
                "The account \(id) signed out: make its collections after it signs in again.")
        }
    }

    /// The synced collections made on the store that are still alive.
    var collections: [any AccountMember] {
        members.withLock { $0.list.compactMap(\.collection) }
    }

    /// The collections, for a sign-out: none is adopted after (`closing`), or again (after a
    /// sign-out that failed, `false`).
    func collections(closing: Bool) -> [any AccountMember] {
        members.withLock { members in
            members.closed = closing
            return members.list.compactMap(\.collection)
        }
    }
}

/// A synced collection as its account sees it.
protocol AccountMember: AnyObject, Sendable {
    var collectionName: String { get }
    /// Stops its triggers (its group's).
    func stop() async
    /// Waits for its run in progress (its group's) to end.
    func idleForSignOut() async
    /// What a sign-out keeping the unsent writes keeps of its rows.
    func keptAtSignOut(in tx: ObjectTransaction) throws -> AccountData.Kept
    /// Starts its pulls over, in the sign-out's transaction: a full resync of the collection (of
    /// each of its scopes), which also prunes the kept rows the server no longer has.
    func restartPulls(in tx: ObjectTransaction) throws
}

extension SyncedCollection: AccountMember {
    func idleForSignOut() async {
        if let group { await group.runner.idle() }
        await runner.idle()
    }

    func keptAtSignOut(in tx: ObjectTransaction) throws -> AccountData.Kept {
        var kept = try outbox.identitiesWithWrites(in: tx).map(\.databaseValue)
        if let filter = remote.retaining {
            kept += try tx.fetch(Query<Entity>(where: filter)).map(\.id.databaseValue)
        }
        // A row holding a value of a field only this device has (RemoteCollection.keeping) keeps it:
        // a non-optional field always holds one. Only the table's own columns are read.
        if !remote.keeping.isEmpty {
            let columns = Set(
                try tx.rows("SELECT name FROM pragma_table_info(?)", [.text(Entity.entityName)]).compactMap {
                    $0[0].textValue
                })
            let held = remote.keeping.map(\.property).filter(columns.contains).map {
                "\(quote($0)) IS NOT NULL"
            }
            if !held.isEmpty {
                kept += try tx.rows(
                    "SELECT \(quote(Entity.idField.name)) FROM \(quote(Entity.entityName)) "
                        + "WHERE \(held.joined(separator: " OR "))"
                ).map { $0[0] }
            }
        }
        return AccountData.Kept(
            collection: remote.name, table: Entity.entityName, key: Entity.idField.name, identities: kept)
    }

}

/// The first adapter of an account's client: once the account signs out, every request its
/// client would still send fails with ``FetchError/Code-swift.struct/authenticationFailed``
/// before a byte leaves (Sync keeps the write queued and ends following, as for credentials that
/// cannot be renewed).
final class AccountGate: RequestAdapter {
    private let open = Locked(true)
    private let account: String

    init(account: String) { self.account = account }

    var isOpen: Bool { open.withLock { $0 } }

    /// Refuses every later request.
    func close() { open.withLock { $0 = false } }

    /// Lets requests through again (a sign-out that failed before it closed the store).
    func reopen() { open.withLock { $0 = true } }

    func adapt(_ request: URLRequest) throws(FetchError) -> URLRequest {
        guard isOpen else {
            throw FetchError(
                code: .authenticationFailed,
                detail: "the account \(account) signed out, so its client sends nothing more; sign in again to sync it")
        }
        return request
    }
}
