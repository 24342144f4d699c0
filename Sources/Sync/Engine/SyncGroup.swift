import FetchKit
import Foundation
public import Persistence

/// Collections whose records refer to each other, synced as one: authors and their books,
/// shelves and the books on them.
///
/// ```swift
/// let authors = try SyncedCollection(.pocketBase("authors", at: server, version: \Author.updated), store: store, client: client)
/// let books = try SyncedCollection(.pocketBase("books", at: server, version: \Book.updated), store: store, client: client)
/// let library = try SyncGroup(authors, books)      // Book.author is a ToOne<Book, Author>
/// try await library.sync()
/// ```
///
/// The group reads the relations from the entities' `ToOne` references (`StoredEntity.relations`)
/// between its collections' entities, and keeps the server's view of them whole:
///
/// - **Pushes:** a write of a child is not sent while its parent's create waits unsent, in any state
///   (pending, failing, refused, parked): a child never reaches the server before its parent, and a
///   parent whose push fails leaves its children queued, their rows in place. A parent's delete is
///   not sent while a write of a child that refers to it waits: children go first.
/// - **Local deletes:** deleting a parent through its collection (``SyncedCollection/delete(_:in:)``)
///   applies the relation's delete rule through the children's collections, in the same
///   transaction: `cascade` queues the children's deletes, `nullify` their updates, so the server
///   hears of every row the rule changed (`deny` refuses the delete while children refer to it).
/// - **Pulls:** parents are pulled before children. A page whose record refers to a parent the
///   store does not hold (created on the server after the parents were pulled) pulls the parent's
///   collection again, looks up the parents still missing (``ChangeFeed/lookup``: a parent
///   outside its collection's scopes), and applies the page then, whole, with them in its
///   transaction; a parent the server never sends fails the
///   run with ``SyncError/Code-swift.struct/missingParent`` naming both records, and nothing of the
///   page is applied. A parent deleted on the server while rows here still refer to it is deleted
///   after the children's pull, so no delete rule fires on a half-applied pull.
///
/// Every collection of the group keeps its own outbox, cursor and status; ``sync()`` (or a
/// collection's own ``SyncedCollection/sync()``, which runs its group's) sends and pulls them all,
/// and ``status`` adds them up. Keep the group for as long as its collections: a collection whose
/// group was released syncs alone.
///
/// Relations to entities outside the group are the app's own (the group neither orders nor pulls
/// them). A parent collection must give its records their identities (as the PocketBase preset
/// does): a child that refers to an identity the server will replace could not be sent.
public final class SyncGroup: Sendable {
    /// The collections' names, parents before children.
    public let collections: [String]
    /// The members, parents before children.
    let members: [any GroupMember]
    /// The group's runs, triggers and status.
    let runner: SyncRunner
    var engine: SyncEngine { runner.engine }
    var store: ObjectStore { runner.store }

    /// Groups collections kept in one store.
    ///
    /// - Parameter collections: the synced collections, in any order.
    /// - Throws: ``SyncError`` with ``SyncError/Code-swift.struct/misuse`` for collections that
    ///   cannot be grouped, naming why: none given, two of one name or of one entity, stores that
    ///   differ, a collection already in a group or started on its own, a cycle of relations
    ///   between collections, or a
    ///   parent collection whose identities the server assigns (``RemoteCollection/serverID``).
    public init<each Entity: StoredEntity>(_ collections: repeat SyncedCollection<each Entity>) throws(SyncError) {
        var given: [any GroupMember] = []
        for collection in repeat each collections { given.append(collection) }
        let ordered = try Self.validated(given)
        members = ordered
        self.collections = ordered.map(\.collectionName)
        runner = SyncRunner(collections: ordered.map(\.collectionName), store: ordered[0].memberStore)
        runner.attach(ordered)
        let links = Self.links(ordered)
        for member in ordered {
            try member.join(
                Membership(
                    group: self,
                    parents: links.filter { $0.child == member.collectionName },
                    children: links.filter { $0.parent == member.collectionName }))
        }
    }

    // MARK: Runs

    /// Sends every collection's outbox, parents first, pulls every collection's changes, parents
    /// first, applies the parents' deletes held for the children's pull, and sends what the
    /// pulls' rebases left. Two calls at once share one run, as ``SyncedCollection/sync()``.
    ///
    /// A write that fails stays queued, with the writes that wait on it (its children's); the run
    /// goes on with the others and throws the first failure at its end, as a collection's run.
    ///
    /// - Returns: what the run did, in all the collections.
    /// - Throws: ``SyncError``, naming the collection and the record or page.
    @discardableResult
    public func sync() async throws(SyncError) -> SyncReport {
        try await runner.sync()
    }

    /// Starts the group's triggers, as ``SyncedCollection/start(following:)`` does for one
    /// collection: sends the outboxes now, after each commit that queues a write in any of them,
    /// and when a failed send's backoff ends; with `notifications`, runs the group's sync whenever
    /// the server says something changed in any of its collections.
    ///
    /// ```swift
    /// await library.start(following: .pocketBase(at: server, collections: library.collections))
    /// ```
    ///
    /// - Parameter notifications: the server's change notifications to follow, sent through the
    ///   client of the group's first collection (parents first); `nil` (the default) for none.
    public func start(following notifications: ChangeNotifications? = nil) async {
        await runner.start(keeping: self, following: notifications, client: members[0].memberClient)
    }

    /// Stops the triggers ``start(following:)`` started, and closes the connection to the
    /// notifications it followed; a run in progress finishes.
    public func stop() async {
        await runner.stop()
    }

    /// The group's status: the collections' counts added up, `lastPull` the oldest of theirs (the
    /// group is as fresh as its least fresh collection), `lastPush` the newest, `nextRetry` the
    /// soonest; ``SyncStatus/collection`` is the names joined by `+`.
    public var status: SyncStatus {
        get async { await runner.status }
    }

    /// The group's status as it changes: the status now, then each change.
    public var statusUpdates: AsyncStream<SyncStatus> { runner.statusUpdates }

    /// The member of the collection `name`.
    func member(_ name: String) -> (any GroupMember)? {
        members.first { $0.collectionName == name }
    }

    // MARK: Building the group

    /// The members, checked and ordered parents first.
    private static func validated(_ given: [any GroupMember]) throws(SyncError) -> [any GroupMember] {
        guard let first = given.first else {
            throw SyncError(.misuse, collection: "", "A SyncGroup needs at least one collection.")
        }
        var names = Set<String>()
        var entities = Set<String>()
        for member in given {
            guard names.insert(member.collectionName).inserted else {
                throw SyncError(
                    .misuse, collection: member.collectionName,
                    "\(member.collectionName) is given twice to the SyncGroup; give each collection once.")
            }
            guard entities.insert(member.entityName).inserted else {
                throw SyncError(
                    .misuse, collection: member.collectionName,
                    "Two collections of the SyncGroup keep the entity \(member.entityName); the group finds a "
                        + "record's parent by its entity, so each entity may be kept by one collection of a group.")
            }
            guard member.memberStore === first.memberStore else {
                throw SyncError(
                    .misuse, collection: member.collectionName,
                    "\(member.collectionName) is kept in another store than \(first.collectionName); a group applies "
                        + "a record and its parents in one transaction, so its collections share one ObjectStore.")
            }
            if member.isStartedAlone {
                throw SyncError(
                    .misuse, collection: member.collectionName,
                    "\(member.collectionName) was started on its own (start(following:)); its sends would race the group's. "
                        + "Make the group before starting, and start the group (or stop the collection first).")
            }
            if member.isInGroup {
                throw SyncError(
                    .misuse, collection: member.collectionName,
                    "\(member.collectionName) is already in a SyncGroup; a collection belongs to one group.")
            }
        }
        let links = links(given)
        for link in links where link.child != link.parent {
            if let parent = given.first(where: { $0.collectionName == link.parent }), parent.assignsServerIdentities {
                throw SyncError(
                    .misuse, collection: link.parent,
                    "\(link.child).\(link.column) refers to \(link.parent), whose records get their identity from the "
                        + "server (RemoteCollection.serverID): a child created here would name an identity the server "
                        + "replaces. Give \(link.parent) client-chosen identities (as RemoteCollection.pocketBase does)."
                )
            }
        }
        // Parents first (Kahn's order; a collection's references to itself do not order it).
        var remaining = given
        var ordered: [any GroupMember] = []
        while !remaining.isEmpty {
            let placed = Set(ordered.map(\.collectionName))
            guard
                let next = remaining.firstIndex(where: { member in
                    links.allSatisfy {
                        $0.child != member.collectionName || $0.parent == $0.child || placed.contains($0.parent)
                    }
                })
            else {
                let cycle = remaining.map(\.collectionName).sorted()
                let edges = links.filter {
                    cycle.contains($0.child) && cycle.contains($0.parent) && $0.child != $0.parent
                }
                .map { "\($0.child).\($0.column) → \($0.parent)" }.sorted()
                throw SyncError(
                    .misuse, collection: cycle.joined(separator: "+"),
                    "The relations between \(cycle.joined(separator: ", ")) form a cycle (\(edges.joined(separator: "; "))): "
                        + "a group sends parents before children, so no order would do. Leave one of these relations "
                        + "out of the group (sync that collection on its own), or make it a plain property.")
            }
            ordered.append(remaining.remove(at: next))
        }
        return ordered
    }

    /// The relations between the members' entities.
    private static func links(_ members: [any GroupMember]) -> [GroupLink] {
        var byEntity: [String: String] = [:]
        for member in members { byEntity[member.entityName] = member.collectionName }
        return members.flatMap { member in
            member.references.compactMap { reference in
                byEntity[reference.target].map {
                    GroupLink(
                        child: member.collectionName, column: reference.column, parent: $0, rule: reference.rule)
                }
            }
        }
    }
}

extension SyncStatus {
    /// A group's status: `members` added up (see ``SyncGroup/status``).
    init(group: String, _ members: [SyncStatus]) {
        self.init(collection: group)
        pendingCount = members.reduce(0) { $0 + $1.pendingCount }
        rejectedCount = members.reduce(0) { $0 + $1.rejectedCount }
        conflictedCount = members.reduce(0) { $0 + $1.conflictedCount }
        nextRetry = members.compactMap(\.nextRetry).min()
        let pulls = members.map(\.lastPull)
        lastPull = pulls.contains { $0 == nil } ? nil : pulls.compactMap { $0 }.min()
        lastPush = members.compactMap(\.lastPush).max()
    }
}
