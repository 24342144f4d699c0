import FetchKit
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Every benchmark case, in report order.
func allCases(_ scratch: Scratch) throws -> [BenchmarkCase] {
    let fetchPath = try makeFetchDatabase(scratch)
    let server = try makeBenchmarkServer()
    let session = URLSession(configuration: .ephemeral)
    let client = FetchClient()
    let refreshCount = 1_000
    let page = try googleBooksPage40()
    return [
        BenchmarkCase(
            name: "Decoding: 40-item Google Books page into the flat book (x\(decodingRepeats))",
            ours: pathDecodingSide(page: page), reference: seedDecodingSide(page: page), target: 1.15,
            iterations: 15),
        BenchmarkCase(
            name: "FetchKit: per-request cost of fetch (x\(perRequestCount))",
            ours: fetchKitPerRequestSide(server: server, client: client),
            reference: rawPerRequestSide(server: server, session: session), target: 1.05, iterations: 9),
        BenchmarkCase(
            name: "FetchKit: refresh 1,000 items, 20 ms latency, limit 6",
            ours: fetchKitRefreshSide(server: server, client: client, count: refreshCount),
            reference: dispatchGroupRefreshSide(server: server, session: session, count: refreshCount),
            others: [oneAtATimeRefreshSide(server: server, session: session, count: refreshCount)],
            target: 1.15, idealTime: .milliseconds(refreshCount * 20 / 6), iterations: 3),
        BenchmarkCase(
            name: "Persistence: insert 50,000 rows in one persist",
            ours: oursInsertSide(scratch), reference: rawInsertSide(scratch), others: [grdbInsertSide(scratch)],
            target: 2.0, iterations: 5),
        BenchmarkCase(
            name: "Persistence: fetch 200,000 rows into structs",
            ours: oursFetchSide(path: fetchPath), reference: rawFetchSide(path: fetchPath),
            others: [grdbFetchSide(path: fetchPath)], target: 2.0,
            iterations: 5),
        BenchmarkCase(
            name: "Persistence: one small persist (x1,000)",
            ours: oursSmallPersistSide(path: fetchPath), reference: rawSmallPersistSide(path: fetchPath),
            others: [grdbSmallPersistSide(path: fetchPath)],
            target: 1.5,
            iterations: 5),
    ]
}

/// The names of the memory cases, each measured in a child process.
let memoryCaseNames: [String] = []

/// Runs one memory case in this (child) process.
func runMemoryCase(_ name: String) throws {
    throw RawSQLite.Failure(description: "unknown memory case \(name)")
}
