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
    /// the account signed out.
    public let client: FetchClient
    /// The account's folder (its store and cache).
    let folder: URL
    let gate: AccountGate
    /// The synced collections made on the store, held without owning them.
    private let members = Locked<[Member]>([])

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
    /// (its writes would go with other credentials), or once the account signed out.
    func adopt(_ collection: some AccountMember, client: FetchClient) throws(SyncError) {
        guard client === self.client else {
            throw SyncError(
                .misuse, collection: collection.collectionName,
                "The store of \(collection.collectionName) is the store of the account \(id): sync it with that account's "
                    + "client (SyncAccount.client), so its writes go only with the account's credentials.")
        }
        guard isSignedIn else {
            throw SyncError(
                .misuse, collection: collection.collectionName,
                "The account \(id) signed out: make its collections after it signs in again.")
        }
        members.withLock { members in
            members.removeAll { $0.collection == nil }
            members.append(Member(collection: collection))
        }
    }

    /// The synced collections made on the store that are still alive.
    var collections: [any AccountMember] {
        members.withLock { $0.compactMap(\.collection) }
    }
}

/// A synced collection as its account sees it.
protocol AccountMember: AnyObject, Sendable {
    var collectionName: String { get }
    /// The entity's table.
    var entityName: String { get }
    /// Stops its triggers (its group's) and waits for the run in progress to end.
    func stopForSignOut() async
}

extension SyncedCollection: AccountMember {
    func stopForSignOut() async {
        await stop()
        if let group { await group.runner.idle() }
        await runner.idle()
    }
}

/// The first adapter of an account's client: once the account signs out, every request its
/// client would still send fails with ``FetchError/Code-swift.struct/cancelled``, before a byte
/// leaves.
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
                code: .cancelled,
                detail: "the account \(account) signed out, so its client sends nothing more; sign in again to sync it")
        }
        return request
    }
}
