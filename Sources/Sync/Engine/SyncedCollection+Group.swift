import FetchKit
import Foundation
import Locking
import Persistence

/// A relation between two collections of a group: `child.column` refers to a record of `parent`.
struct GroupLink: Sendable, Hashable {
    var child: String
    var column: String
    var parent: String
    var rule: DeleteRule
}

/// What a collection knows of its group.
struct Membership: Sendable {
    /// The group; a collection whose group was released syncs alone.
    weak var group: SyncGroup?
    /// The relations in which this collection is the child.
    var parents: [GroupLink]
    /// The relations in which this collection is the parent.
    var children: [GroupLink]
}

/// A synced collection as its group drives it.
protocol GroupMember: AnyObject, Sendable {
    var collectionName: String { get }
    var entityName: String { get }
    var memberStore: ObjectStore { get }
    /// The client the collection sends its requests with.
    var memberClient: FetchClient { get }
    var engine: SyncEngine { get }
    /// The entity's to-one references: column, target entity, delete rule.
    var references: [(column: String, target: String, rule: DeleteRule)] { get }
    /// Whether the server gives the records their identities (``RemoteCollection/serverID``).
    var assignsServerIdentities: Bool { get }
    var isInGroup: Bool { get }
    /// Whether the collection's own triggers run (``SyncedCollection/start(following:)`` outside a group).
    var isStartedAlone: Bool { get }
    /// Whether a collection of the group refers to this one's records.
    var isParentInGroup: Bool { get }
    /// When a pull of the collection last finished without a transaction (a quiet page).
    var quietPull: Locked<Date?> { get }
    func join(_ membership: Membership) throws(SyncError)
    /// Reads what a run of the collection starts from.
    func prepare() async throws(SyncError) -> RunStart
    /// Sends the outbox (`waiting`: whether it holds a write to send, when a read already said).
    func push(
        _ report: inout SyncReport, honouringBackoff: Bool, held: inout Set<String>, waiting: Bool?
    )
        async throws(SyncError) -> SyncError?
    /// Pulls from the start a run read; returns whether the outbox holds a write to send, when the
    /// pull's last transaction read it.
    func pull(_ report: inout SyncReport, start: RunStart) async throws(SyncError) -> Bool?
    /// Pulls again, from a fresh start (a parent a child's page needs).
    func groupPull(_ report: inout SyncReport) async throws(SyncError)
    /// Looks up records this store lacks (a child's parents), returning what stores them.
    func lookUp(_ identities: [String]) async throws(SyncError) -> (@Sendable (ObjectTransaction) throws -> Void)?
    func applyHeldDeletes(_ report: inout SyncReport) async throws(SyncError)
    /// Applies a parent's delete rule to this collection's rows that refer to it through `column`,
    /// queueing their writes.
    func applyDeleteRule(
        ofParent id: any Sendable, column: String, in tx: ObjectTransaction, deleting: inout Set<String>
    ) throws
    /// Whether a row refers to the parent `id` through `column`.
    func refers(toParent id: any Sendable, column: String, in tx: ObjectTransaction) throws -> Bool
}

extension SyncedCollection: GroupMember {
    var collectionName: String { remote.name }
    var entityName: String { Entity.entityName }
    var memberStore: ObjectStore { store }
    var memberClient: FetchClient { client }
    var references: [(column: String, target: String, rule: DeleteRule)] {
        Entity.syncReferences.map { ($0.column, $0.targetName, $0.deleteRule) }
    }
    var assignsServerIdentities: Bool { remote.serverID != nil }
    var isInGroup: Bool { membership.current?.group != nil }
    var isStartedAlone: Bool { startedAlone.current }
    var isParentInGroup: Bool { !(membership.current?.children.isEmpty ?? true) }

    func join(_ membership: Membership) throws(SyncError) {
        let joined = self.membership.withLock { current -> Bool in
            // A group that was released leaves no member behind.
            guard current?.group == nil else { return false }
            current = membership
            return true
        }
        guard joined else {
            throw SyncError(
                .misuse, collection: remote.name,
                "\(remote.name) is already in a SyncGroup; a collection belongs to one group.")
        }
    }

    /// The group this collection syncs with, while it is alive.
    var group: SyncGroup? { membership.current?.group }

    func groupPull(_ report: inout SyncReport) async throws(SyncError) {
        let start = try await prepare()
        try await pull(&report, start: start)
    }

    // MARK: Local deletes

    func applyDeleteRule(
        ofParent id: any Sendable, column: String, in tx: ObjectTransaction, deleting: inout Set<String>
    ) throws {
        guard let reference = Entity.syncReferences.first(where: { $0.column == column }) else { return }
        switch reference.deleteRule {
        case .cascade:
            // A collection without a delete request keeps its rows' deletes local (the store's rule).
            guard remote.writes.delete != nil else { return }
            for row in try reference.rows(referringTo: id, limit: nil, in: tx) {
                try delete(row.id, in: tx, deleting: &deleting)
            }
        case .nullify:
            guard remote.writes.update != nil else { return }
            for row in try reference.rows(referringTo: id, limit: nil, in: tx)
            where !deleting.contains("\(remote.name)/\(row.id.databaseValue.identityText)") {
                let cleared = try SyncJSON.decode(
                    Entity.self, from: try ReferenceJSON.clearing(column, in: Outbox.encode(row)))
                try save(cleared, in: tx)
            }
        case .deny, .none:
            // The store refuses the parent's delete while rows refer to it.
            return
        }
    }

    func refers(toParent id: any Sendable, column: String, in tx: ObjectTransaction) throws -> Bool {
        guard let reference = Entity.syncReferences.first(where: { $0.column == column }) else { return false }
        return try !reference.rows(referringTo: id, limit: 1, in: tx).isEmpty
    }

    /// Applies the delete rules of the relations that refer to `id` through the group's
    /// collections, before the row is deleted (see ``SyncGroup``).
    func applyDeleteRules(of id: Entity.ID, in tx: ObjectTransaction, deleting: inout Set<String>) throws {
        guard let membership = membership.current, !membership.children.isEmpty, let group = membership.group else {
            return
        }
        for link in membership.children {
            try group.member(link.child)?.applyDeleteRule(
                ofParent: id, column: link.column, in: tx, deleting: &deleting)
        }
    }

    // MARK: Pushes in order

    /// The records of `candidates` (a round being chosen) whose writes wait on another record's:
    /// a child's write while its parent's create is unsent; a parent's delete while a write of a
    /// child that refers to it is.
    func waitingOnRelations(_ candidates: [PendingWrite], in tx: ObjectTransaction) throws -> Set<String> {
        guard let membership = membership.current, !candidates.isEmpty else { return [] }
        var waiting = Set<String>()
        // The parents' collections whose outbox holds an unsent create (the usual answer, once
        // the parents went first: none, and no payload is read).
        let creating = try Set(
            Set(membership.parents.map(\.parent)).filter { parent in try OutboxTable.holdsUnsentCreate(in: parent, tx) }
        )
        let parents = membership.parents.filter { creating.contains($0.parent) }
        if !parents.isEmpty {
            // Each write's references, read from what it sends (an update's, or a create's payload).
            let columns = parents.map(\.column)
            var wanted: [String: [String: [String]]] = [:]  // parent collection → parent → children
            for write in candidates where write.operation != .delete {
                let references = ReferenceJSON.references(columns, in: write.payload)
                for link in parents {
                    guard let parent = references[link.column] else { continue }
                    // A record referring to itself waits on nothing.
                    if link.parent == link.child, parent == write.recordID { continue }
                    wanted[link.parent, default: [:]][parent, default: []].append(write.recordID)
                }
            }
            for (collection, parents) in wanted {
                let creating = try OutboxTable.unsentCreates(of: Array(parents.keys), in: collection, tx)
                for write in creating { waiting.formUnion(parents[write.recordID] ?? []) }
            }
        }
        let deletes = Set(candidates.filter { $0.operation == .delete }.map(\.recordID))
        if !membership.children.isEmpty, !deletes.isEmpty {
            for link in membership.children {
                let writes = try OutboxTable.notAcknowledged(of: link.child, tx)
                for write in writes where !(link.child == link.parent && deletes.contains(write.recordID)) {
                    for data in [write.payload, write.base] {
                        if let parent = ReferenceJSON.reference(link.column, in: data), deletes.contains(parent) {
                            waiting.insert(parent)
                        }
                    }
                }
            }
        }
        return waiting
    }

    // MARK: Pulls in order

    /// Whether the group holds a collection whose rows refer to `id`: a delete of it from the
    /// server waits for the children's pull.
    func isReferredToInGroup(_ id: Entity.ID, in tx: ObjectTransaction) throws -> Bool {
        guard let membership = membership.current, !membership.children.isEmpty, let group = membership.group else {
            return false
        }
        for link in membership.children {
            if try group.member(link.child)?.refers(toParent: id, column: link.column, in: tx) == true { return true }
        }
        return false
    }

    func applyHeldDeletes(_ report: inout SyncReport) async throws(SyncError) {
        guard isParentInGroup else { return }
        let collection = remote.name
        let outbox = outbox
        let (deleted, conflicts) = try await persist { tx in
            let held = try tx.fetch(Query<SyncHeldDelete>(where: SyncHeldDelete.collection == collection))
            var deleted = 0
            var conflicts = 0
            for record in held {
                let id = try SyncJSON.decode(Entity.ID.self, from: record.identity)
                // Rows still refer to it after the children's pull (a child written here, not sent
                // or refused, or one the server keeps): it stays, held, until they let go.
                if try self.isReferredToInGroup(id, in: tx) { continue }
                let writes = try self.writes(of: record.recordID, in: tx)
                if !writes.isEmpty {
                    // A parent the server still has (it left a scope, or was looked up) stays with
                    // its writes; one the server deleted is a conflict of those writes.
                    if record.onServer != true, try outbox.pulled(nil, over: writes, in: tx) { conflicts += 1 }
                } else if try tx.delete(Entity.self, id: id) {
                    deleted += 1
                }
                _ = try tx.delete(record)
            }
            return (deleted, conflicts)
        }
        report.recordsDeleted += deleted
        report.conflicts += conflicts
    }

    /// The error of a page record whose parent the store does not hold.
    func missingParent(
        _ record: Entity, column: String, page: String, afterPullingParent: Bool, _ error: PersistenceError
    ) -> SyncError? {
        guard let link = membership.current?.parents.first(where: { $0.column == column }) else { return nil }
        let text = record.id.databaseValue.identityText
        let parent = (try? ReferenceJSON.reference(column, in: Outbox.encode(record))) ?? nil
        let which = parent.map { "\(link.parent)/\($0)" } ?? "a record of \(link.parent)"
        let why =
            afterPullingParent
            ? "the server did not send it when \(link.parent) was pulled again"
            : "the store does not hold it"
        return SyncError(
            .missingParent, collection: remote.name, record: text, page: page, property: column,
            "The record \(remote.name)/\(text) of page \(page) refers to \(which) (\(column)), but \(why); nothing of "
                + "the page was applied, and the next sync reads it again.",
            persistenceError: error)
    }
}

extension SyncedCollection {
    /// The parent collection a ``SyncError/Code-swift.struct/missingParent`` error asks to pull
    /// again (not this collection itself: its own pull is the one in progress).
    func parentToPull(for error: SyncError) -> (any GroupMember)? {
        guard let membership = membership.current, let group = membership.group,
            let link = membership.parents.first(where: { $0.column == error.property }), link.parent != link.child
        else { return nil }
        return group.member(link.parent)
    }
}
