import FetchKit
import Foundation
import Persistence

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Every benchmark case, in report order.
func allCases(_ scratch: Scratch, fetchPath: String) throws -> [BenchmarkCase] {
    let server = try makeBenchmarkServer()
    // The same session settings as FetchKit's default transport (no cache, no cookies, 6
    // connections per host), so the raw sides do no work FetchKit's side is spared.
    let session = freshSession()
    let client = FetchClient()
    let refreshCount = 1_000
    let page = try googleBooksPage40()
    // Made when a case first runs (so a filtered run that skips them does not pay for them).
    let scale = lazily { try ScaleStore(scratch) }
    let handshakeServer = try makeHandshakeServer()
    let stream = lazily { try CommitStream(scratch) }
    let relations = lazily { try makeRelationDatabase(scratch) }
    let sales = lazily { try SaleFiles(scratch) }
    let observedSales = lazily { try ObservedSales(path: sales().observedPath) }
    let conditionalServer = try makeConditionalServer()
    let linuxPeers = try linuxPeerCases(refreshCount: refreshCount)
    let smallBody = smallBodyDecodingSides()
    let realDocuments = try numberCases() + realDocumentCases()
    let sync =
        try syncCases(scratch) + largeMirrorCases(scratch) + syncGraphCases(scratch) + syncObservedWriteCases(scratch)
    return linuxPeers + realDocuments + sync + [
        BenchmarkCase(
            name: "Decoding: 40-item Google Books page into the flat book (x\(decodingRepeats))",
            ours: pathDecodingSide(page: page), reference: seedDecodingSide(page: page), target: 1.05,
            iterations: 15),
        BenchmarkCase(
            name: "Decoding: one small response body, PathDecoder against a fresh JSONDecoder (x20,000)",
            ours: smallBody.ours, reference: smallBody.reference, target: 1.05,
            iterations: 9),
        try pipelineAloneCase(count: 20_000),
        BenchmarkCase(
            name: "FetchKit: per-request cost of fetch (x\(perRequestCount))",
            ours: fetchKitPerRequestSide(server: server, client: client),
            reference: rawPerRequestSide(server: server, session: session),
            others: [
                rawPerRequestHoppingSide(server: server, session: session),
                fetchKitJSONDecoderPerRequestSide(server: server, client: client),
            ], target: 1.02, iterations: 25),
        BenchmarkCase(
            name: "FetchKit: per-request cost of async fetch (x\(perRequestCount))",
            ours: fetchKitAsyncPerRequestSide(baseURL: server.baseURL, client: client, name: "FetchKit async fetch"),
            reference: rawURLSessionAsyncPerRequestSide(url: server.url("/movie"), session: session),
            others: [
                rawDataTaskContinuationPerRequestSide(url: server.url("/movie"), session: session),
                fetchKitAsyncPerRequestSide(
                    baseURL: server.baseURL,
                    client: FetchClient { $0.transport = AsyncDataTransport(session: session) },
                    name: "FetchKit async fetch over data(for:)"),
            ],
            target: 1.02, iterations: 25),
        BenchmarkCase(
            name: "FetchKit: refresh 1,000 items, 20 ms latency, limit 6",
            ours: fetchKitRefreshSide(server: server, client: client, count: refreshCount),
            reference: dispatchGroupRefreshSide(server: server, session: session, count: refreshCount),
            others: [
                rawWorkersRefreshSide(server: server, session: session, count: refreshCount),
                oneAtATimeRefreshSide(server: server, session: session, count: refreshCount),
            ],
            target: 1.05, idealTime: .milliseconds(refreshCount * 20 / 6), iterations: 3),
        BenchmarkCase(
            name: "FetchKit: refresh 1,000 items, 20 ms latency, 100 ms per new connection, limit 6",
            ours: fetchKitHandshakeSide(server: handshakeServer, count: refreshCount),
            reference: dispatchGroupHandshakeSide(server: handshakeServer, count: refreshCount),
            target: 1.05, idealTime: .milliseconds(refreshCount * 20 / 6 + 100), iterations: 3),
        BenchmarkCase(
            name: "FetchKit: refresh 1,000 unchanged items with an HTTP cache (304s), 20 ms latency, limit 6",
            ours: cachedRefreshSide(server: conditionalServer, count: refreshCount),
            reference: uncachedRefreshSide(server: conditionalServer, count: refreshCount),
            target: 1.05, iterations: 3),
        BenchmarkCase(
            name: "Persistence: insert 50,000 rows in one persist",
            ours: oursInsertSide(scratch), reference: rawInsertSide(scratch), others: [grdbInsertSide(scratch)],
            // The floor of any `Codable` path (issue 65): judged in instructions, shown on the wall.
            target: 1.6, iterations: 5),
        BenchmarkCase(
            name: "Persistence: fetch 200,000 rows into structs",
            ours: oursFetchSide(path: fetchPath), reference: rawFetchSide(path: fetchPath),
            others: [codableFloorFetchSide(path: fetchPath), grdbFetchSide(path: fetchPath)], target: 1.6,
            iterations: 5),
        BenchmarkCase(
            name: "Persistence: one small persist (x1,000)",
            ours: oursSmallPersistSide(path: fetchPath), reference: rawSmallPersistSide(path: fetchPath),
            others: [grdbSmallPersistSide(path: fetchPath)],
            target: 1.5,
            iterations: 5),
        BenchmarkCase(
            name: "Persistence: 10,000 authors with 10 books each, fetched with their books",
            ours: oursPrefetchSide(relations), reference: rawPrefetchSide(relations),
            others: [oursNPlusOneSide(relations), grdbPrefetchSide(relations)], target: 1.3, iterations: 7),
        BenchmarkCase(
            name: "Persistence: observed 1,000,000-row sorted query, one-row commit to delivery",
            ours: oursObservedCommitSide(scale), reference: fullRefetchSide(scale), target: 1.0,
            idealTime: .milliseconds(50), iterations: 15),
        BenchmarkCase(
            name: "Persistence: full-text match of two words over 1,000,000 titles",
            ours: oursFullTextSide(scale), reference: rawFullTextSide(scale), target: 1.0,
            idealTime: .milliseconds(10), iterations: 15),
        BenchmarkCase(
            name: "Persistence: a read on one context while another holds a 2 s write, 1,000,000 rows",
            ours: oursReadBesideWriteSide(scale), reference: oursReadAloneSide(scale), target: 1.0,
            idealTime: .milliseconds(10), iterations: 5),
        BenchmarkCase(
            name:
                "Persistence: observed 100,000-row query under 200 one-row commits a second, first commit to last delivery",
            ours: oursCommitStreamSide(stream), reference: commitPaceSide(stream), target: 1.05,
            idealTime: .seconds(1), iterations: 5),
        BenchmarkCase(
            name: "Persistence: sum over 1,000,000 rows",
            ours: oursSumSide(sales), reference: rawSumSide(sales), target: 1.10, iterations: 15),
        BenchmarkCase(
            name: "Persistence: group-by over 1,000,000 rows",
            ours: oursGroupsSide(sales), reference: rawGroupsSide(sales), target: 1.10, iterations: 15),
        BenchmarkCase(
            name:
                "Persistence: update by filter of 100,000 of 1,000,000 rows with an observer attached, commit to delivery",
            ours: oursObservedUpdateSide(observedSales), reference: unobservedUpdateSide(sales),
            others: [
                oursObservedUpdateWholeSide(observedSales), rawUpdateSide(sales), fetchEditUpdateSide(observedSales),
            ],
            target: 1.0,
            idealTime: .milliseconds(250), iterations: 7),
    ]
}

/// A memory case: a name for the table and the work its child process does.
struct MemoryCase: Sendable {
    var name: String
    var run: @Sendable (_ fetchPath: String) throws -> Void
}

let memoryFanOutCount = 10_000

/// Every memory case, each measured in a child process of its own (peak resident memory,
/// `VmHWM`), in report order. The baseline is the same child doing nothing, so each other
/// row can be read as baseline + the case's own cost.
let memoryCases: [MemoryCase] = baseMemoryCases + uploadMemoryCases + decodingMemoryCases + syncMemoryCases

let baseMemoryCases: [MemoryCase] = [
    MemoryCase(name: "baseline: the benchmark process doing nothing") { _ in },
    MemoryCase(name: "FanOut: 10,000 trivial async jobs, limit 6") { _ in
        let report = try blocking {
            await FanOut(maximumConcurrency: 6).run(0..<memoryFanOutCount, changed: { _, _ in true }) { n in
                await Task.yield()
                return n
            }
        }
        guard report.changedCount == memoryFanOutCount else {
            throw RawSQLite.Failure(description: "the fan-out changed \(report.changedCount) items")
        }
    },
    MemoryCase(name: "FetchKit: fetchAll of 10,000 items on the stub server, limit 6") { _ in
        let server = try makeBenchmarkServer()
        defer { server.stop() }
        let client = FetchClient()
        let base = server.baseURL
        let report = try blocking {
            await client.fetchAll(
                Array(0..<memoryFanOutCount), endpoint: { _ in BenchEndpoint(baseURL: base, path: "/movie") },
                extracting: .decode(SmallMovie.self), using: FanOut(maximumConcurrency: 6),
                changed: { _, _ in true },
                // The stub server records every request; forget them as we go so the peak is FetchKit's.
                progress: { if $0.completed % 500 == 0 { server.resetRecording() } })
        }
        guard report.changedCount == memoryFanOutCount else {
            throw RawSQLite.Failure(description: "fetchAll: \(report.failedCount) of the requests failed")
        }
    },
    MemoryCase(name: "Persistence: FetchKit fetch of 200,000 rows") { path in
        let store = try ObjectStore(at: URL(fileURLWithPath: path), entities: [BenchItem.self])
        defer { store.close() }
        let count = try store.context.readAndWait { try $0.fetch(Query<BenchItem>()) }.count
        guard count == fetchCount else { throw RawSQLite.Failure(description: "FetchKit fetch read \(count) rows") }
    },
    MemoryCase(name: "Persistence: raw C fetch of 200,000 rows (reference)") { path in
        let count = try RawSQLite(path: path).fetchItems().count
        guard count == fetchCount else { throw RawSQLite.Failure(description: "raw fetch read \(count) rows") }
    },
]

/// Runs one memory case in this (child) process.
func runMemoryCase(_ name: String, fetchPath: String) throws {
    guard let memoryCase = memoryCases.first(where: { $0.name == name }) else {
        throw RawSQLite.Failure(description: "unknown memory case \(name)")
    }
    try memoryCase.run(fetchPath)
}

/// A function that makes its value on the first call and returns the same one afterwards.
func lazily<T>(_ make: @escaping () throws -> T) -> () throws -> T {
    var made: T?
    return {
        if let made { return made }
        let value = try make()
        made = value
        return value
    }
}
