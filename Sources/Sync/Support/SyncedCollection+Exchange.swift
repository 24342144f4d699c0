import FetchKit
import Foundation
import Persistence

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A response's body and head.
struct Exchange: Sendable {
    let data: Data
    let response: HTTPURLResponse
}

/// The plumbing pulls and pushes share: requests through the client, store work whose failures
/// name the collection, and errors that name the request.
extension SyncedCollection {
    /// Sends a request and returns its body and head.
    func exchange(_ endpoint: any Endpoint, headers: [String: String] = [:]) async throws(FetchError) -> Exchange {
        try await client.fetch(
            UncachedRequest(endpoint, headers: headers),
            extracting: .custom { data, response in Exchange(data: data, response: response) })
    }

    /// Runs a store block, turning its failures into ``SyncError``s naming the collection.
    func persist<T: Sendable>(
        record: String? = nil, page: String? = nil, _ block: @escaping @Sendable (ObjectTransaction) throws -> T
    ) async throws(SyncError) -> T {
        try await storeWork(record: record, page: page) {
            try await self.store.context.persist { tx in
                // The collection's own transaction: its rows, and the related rows a page stores.
                tx.allowEveryGuardedWrite()
                return try block(tx)
            }
        }
    }

    /// Runs a block of reads, turning its failures into ``SyncError``s naming the collection.
    func read<T: Sendable>(_ block: @escaping @Sendable (ObjectTransaction) throws -> T) async throws(SyncError) -> T {
        try await storeWork { try await self.store.context.read(block) }
    }

    private func storeWork<T: Sendable>(
        record: String? = nil, page: String? = nil, _ work: () async throws -> T
    ) async throws(SyncError) -> T {
        do {
            return try await work()
        } catch let error as SyncError {
            throw error
        } catch let error as PersistenceError {
            let what = record.map { " record \($0)" } ?? page.map { " page \($0)" } ?? ""
            throw SyncError(
                .storeFailed, collection: remote.name, record: record, page: page,
                "The store refused\(what) of \(remote.name): \(error.message)", persistenceError: error)
        } catch {
            throw SyncError(
                .storeFailed, collection: remote.name, record: record, page: page,
                "The store refused a change of \(remote.name): \(error)")
        }
    }

    /// Whether the server refused a request for what it asks (a `4xx` that is not transient,
    /// `FetchError.isTransient`, nor a `401` a fresh token may pass): a scope's listing, a batch.
    static func refuses(_ error: FetchError) -> Bool {
        guard let status = error.statusCode else { return false }
        return (400..<500).contains(status) && status != 401 && !error.isTransient
    }

    func requestError(_ error: FetchError, page: SyncCursor?) -> SyncError {
        requestError(error, page: page.map(Self.describe) ?? "first")
    }

    func requestError(_ error: FetchError, page: String? = nil, record: String? = nil) -> SyncError {
        let unauthorized = error.code == .authenticationFailed || error.statusCode == 401
        let what = record.map { "the write of \(remote.name)/\($0)" } ?? "the changes of \(remote.name)"
        return SyncError(
            unauthorized ? .unauthorized : .requestFailed, collection: remote.name, record: record, page: page,
            "Could not \(record == nil ? "pull" : "send") \(what): \(error.description)", fetchError: error)
    }

    static func describe(_ cursor: SyncCursor) -> String {
        switch cursor {
        case .keyset(let version, let id): "after \(version) / \(id)"
        case .token(let token): token.count > 64 ? "token \(token.prefix(61))…" : "token \(token)"
        case .page(let number): "page \(number)"
        }
    }
}
