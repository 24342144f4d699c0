import FetchKit
import Foundation
import Persistence

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Scopes: a collection pulled by parts (``SyncScope``), each with its own cursor; and the
/// parents a group's page needs, looked up when their collection's pull does not bring them.
extension SyncedCollection {
    /// Pulls the collection by these scopes from now on, instead of whole (an empty set: whole
    /// again). The store keeps them: set them once, not at each launch.
    ///
    /// ```swift
    /// try await books.scope(to: [SyncScope("recent", parameters: ["since": "2026-10-27"])])
    /// try await books.sync()
    /// ```
    ///
    /// The change is made at once and pulls nothing itself; the next ``sync()``:
    ///
    /// - lists each new scope from the start, with a cursor of its own (a scope kept from
    ///   before goes on from its cursor);
    /// - then, once every scope is pulled, prunes the rows that only the scopes left behind
    ///   listed (all rows, when the collection was whole): a row stays while another scope
    ///   lists it, while a write of it waits unsent (it goes at the end of the run that sends
    ///   it), while ``RemoteCollection/retaining`` keeps it, and, for a parent of a
    ///   ``SyncGroup``, while children here refer to it.
    ///
    /// A run that fails prunes nothing. Back to whole (`[]`), the next sync reads the whole
    /// collection again and prunes what the server no longer has. A run in progress ends first.
    ///
    /// A record created here stays while its create waits; once the server has it, the end of
    /// the next scoped pull keeps it when a scope lists it and lets it go when none does (created
    /// outside every scope, or in a scope left before the create was sent).
    ///
    /// - Parameter scopes: the scopes to pull; empty to pull the whole collection.
    /// - Throws: ``SyncError`` when the store fails.
    public func scope(to scopes: Set<SyncScope>) async throws(SyncError) {
        await (group?.runner ?? runner).idle()
        _ = try await prepare()
        let name = remote.name
        let kind: SyncWalk.Kind = remote.changes.cursor == .snapshot ? .snapshot : .resync
        let first: SyncCursor? = remote.changes.cursor == .snapshot ? .page(1) : nil
        try await persist { tx in
            var main = try Self.checkpoint(name, in: tx)
            let existing = try tx.fetch(Query<SyncCheckpoint>(where: SyncCheckpoint.collection == name))
            if scopes.isEmpty {
                guard main.scoped == true else { return }
                // Whole again: the scopes and the rows left over are forgotten, and a full resync
                // lists every record and prunes what the server no longer has.
                for checkpoint in existing { try Self.forget(checkpoint, in: tx) }
                _ = try tx.delete(Query<SyncScopeMember>(where: SyncScopeMember.collection == name))
                main.scoped = nil
                main.retired = nil
                main.cursor = nil
                try Self.begin(kind, first: first, on: &main, in: tx)
            } else {
                for var checkpoint in existing {
                    let retired: Bool? = checkpoint.scope.map(scopes.contains) == true ? nil : true
                    guard checkpoint.retired != retired else { continue }
                    checkpoint.retired = retired
                    try tx.upsert(checkpoint)
                }
                let known = Set(existing.compactMap(\.scope))
                for scope in scopes where !known.contains(scope) {
                    var checkpoint = try Self.checkpoint(scope.key(in: name), in: tx)
                    checkpoint.collection = name
                    checkpoint.scope = scope
                    try tx.upsert(checkpoint)
                }
                if main.scoped != true {
                    // The whole collection leaves: its rows are pruned once the scopes are pulled.
                    if let walk = main.walk {
                        _ = try tx.delete(
                            Query<SyncSeenRecord>(
                                where: SyncSeenRecord.collection == name && SyncSeenRecord.generation == walk.generation
                            ))
                        main.walk = nil
                    }
                    main.scoped = true
                    main.retired = true
                    main.cursor = nil
                }
            }
            try tx.upsert(main)
        }
    }

    /// The scopes the collection is pulled by (``scope(to:)``); empty when it is pulled whole.
    public var scopes: Set<SyncScope> {
        get async throws(SyncError) { Set(try await scopeTargets()?.compactMap(\.scope) ?? []) }
    }

    /// The scopes pulled, in the order of their keys, or `nil` when the collection is pulled whole.
    func scopeTargets() async throws(SyncError) -> [PullTarget]? {
        try await scopeCheckpoints()?.map { PullTarget(key: $0.id, scope: $0.scope) }
    }

    /// The checkpoints of the scopes pulled, in the order of their keys, or `nil` when the
    /// collection is pulled whole.
    func scopeCheckpoints() async throws(SyncError) -> [SyncCheckpoint]? {
        let name = remote.name
        return try await read { tx in try Self.scopeCheckpoints(of: name, in: tx) }
    }

    /// ``scopeCheckpoints()`` of collection `name`, read in `tx`.
    static func scopeCheckpoints(of name: String, in tx: ObjectTransaction) throws -> [SyncCheckpoint]? {
        guard try tx.fetch(SyncCheckpoint.self, id: name)?.scoped == true else { return nil }
        return try tx.fetch(Query<SyncCheckpoint>(where: SyncCheckpoint.collection == name))
            .filter { $0.retired != true }.sorted { $0.id < $1.id }
    }

    /// Pulls each scope from its own cursor, then prunes what the scopes left behind listed.
    func pullScopes(_ report: inout SyncReport) async throws(SyncError) {
        for checkpoint in try await scopeCheckpoints() ?? [] {
            let target = PullTarget(key: checkpoint.id, scope: checkpoint.scope)
            try await pull(target, from: checkpoint, &report, startedEmpty: false)
        }
        report.recordsDeleted += try await pruneLeftScopes()
    }

    /// The key of the rows a prune kept for a write or ``RemoteCollection/retaining`` though no
    /// scope lists them (a key no scope has: a scope's key ends in its JSON).
    static func leftoverKey(_ collection: String) -> String { "\(collection)\u{1F}left over" }

    /// Forgets the scopes the collection left (and the whole collection, when it left it for
    /// scopes), and prunes the rows only they listed, and the rows left over from earlier prunes.
    func pruneLeftScopes() async throws(SyncError) -> Int {
        let name = remote.name
        return try await persist { tx in
            var main = try Self.checkpoint(name, in: tx)
            var candidates = try tx.fetch(
                Query<SyncScopeMember>(where: SyncScopeMember.scope == Self.leftoverKey(name))
            )
            .compactMap { Self.identity($0.recordID) }
            for checkpoint in try tx.fetch(Query<SyncCheckpoint>(where: SyncCheckpoint.collection == name))
            where checkpoint.retired == true {
                candidates += try tx.fetch(Query<SyncScopeMember>(where: SyncScopeMember.scope == checkpoint.id))
                    .compactMap { Self.identity($0.recordID) }
                try Self.forget(checkpoint, in: tx)
            }
            if main.retired == true {
                candidates = try tx.fetch(Query<Entity>()).map(\.id)
                main.retired = nil
            }
            let deleted = try self.prune(candidates, scoped: true, in: tx)
            main.lastPull = Date()
            try tx.upsert(main)
            return deleted
        }
    }

    /// Deletes a scope's checkpoint, the rows naming what it listed, and what its walk saw.
    static func forget(_ checkpoint: SyncCheckpoint, in tx: ObjectTransaction) throws {
        _ = try tx.delete(Query<SyncScopeMember>(where: SyncScopeMember.scope == checkpoint.id))
        _ = try tx.delete(Query<SyncSeenRecord>(where: SyncSeenRecord.collection == checkpoint.id))
        _ = try tx.delete(checkpoint)
    }

    // MARK: The parents a page needs

    /// Looks up, in the parents' collections of the group, the parents the records of `page`
    /// refer to that the store does not hold; returns what stores them in the page's
    /// transaction, or `nil` when there is nothing to look up or no collection can.
    func lookUpParents(
        of page: ChangePage<Entity>
    ) async throws(SyncError) -> (@Sendable (ObjectTransaction) throws -> Void)? {
        guard let membership = membership.current, let group = membership.group else { return nil }
        let links = membership.parents.filter { $0.parent != $0.child }
        var wanted: [String: Set<String>] = [:]
        for record in page.records {
            let references = ReferenceJSON.references(links.map(\.column), in: try? Outbox.encode(record))
            for link in links {
                if let parent = references[link.column] { wanted[link.parent, default: []].insert(parent) }
            }
        }
        var stores: [@Sendable (ObjectTransaction) throws -> Void] = []
        for (parent, identities) in wanted.sorted(by: { $0.key < $1.key }) {
            if let store = try await group.member(parent)?.lookUp(identities.sorted()) { stores.append(store) }
        }
        guard !stores.isEmpty else { return nil }
        let found = stores
        return { tx in
            for store in found { try store(tx) }
        }
    }

    /// Reads the records of `identities` this store does not hold with
    /// ``ChangeFeed/lookup``, and returns what stores them (in the transaction of the page
    /// that needs them), or `nil` when the collection has no lookup or holds them all.
    ///
    /// A record looked up in a collection pulled by scopes is held as a group's parent: it stays
    /// while rows refer to it, and goes after the children's pull that lets it go. The parents
    /// the looked-up records refer to in turn are looked up too, and stored before them.
    func lookUp(_ identities: [String]) async throws(SyncError) -> (@Sendable (ObjectTransaction) throws -> Void)? {
        guard let lookup = remote.changes.lookup else { return nil }
        let lacking = try await read { tx in try self.lacking(identities, in: tx) }
        guard !lacking.isEmpty else { return nil }
        let wanted = Set(lacking)
        var records: [Entity] = []
        var start = 0
        while start < lacking.count {
            let chunk = lacking[start..<min(start + 50, lacking.count)]
            start += 50
            let exchange: Exchange
            do {
                exchange = try await self.exchange(lookup(chunk.compactMap(Self.identity)))
            } catch {
                throw requestError(error, page: "lookup of \(chunk.joined(separator: ", "))")
            }
            do {
                let page = try remote.changes.page.extract(from: exchange.data, response: exchange.response)
                records += page.records.filter { wanted.contains($0.id.databaseValue.identityText) }
            } catch {
                throw SyncError(
                    .undecodablePage, collection: remote.name, page: "lookup", property: SyncJSON.failedProperty(error),
                    "The lookup of \(remote.name)'s records \(chunk.joined(separator: ", ")) does not decode: "
                        + SyncJSON.describe(error))
            }
        }
        guard !records.isEmpty else { return nil }
        let name = remote.name
        let found = records
        // Their own parents first, when this collection is a child in the group too.
        let grandparents = try await lookUpParents(of: ChangePage(records: records, hasMore: false))
        return { tx in
            try grandparents?(tx)
            let scoped = try Self.checkpoint(name, in: tx).scoped == true
            for record in found {
                let text = record.id.databaseValue.identityText
                // A row or a write of it arrived meanwhile: it is the newer.
                guard try tx.fetch(Entity.self, id: record.id) == nil, try self.writes(of: text, in: tx).isEmpty else {
                    continue
                }
                try self.outbox.storeRemote(record, in: tx)
                if scoped {
                    try tx.upsert(
                        SyncHeldDelete(
                            collection: name, recordID: text, identity: JSONEncoder().encode(record.id), onServer: true)
                    )
                }
            }
        }
    }
}
