import Foundation

/// Every benchmark case, in report order.
func allCases(_ scratch: Scratch) throws -> [BenchmarkCase] {
    let fetchPath = try makeFetchDatabase(scratch)
    return [
        BenchmarkCase(
            name: "Persistence: insert 50,000 rows in one persist",
            ours: nil, reference: rawInsertSide(scratch), others: [grdbInsertSide(scratch)], target: 2.0, iterations: 5),
        BenchmarkCase(
            name: "Persistence: fetch 200,000 rows into structs",
            ours: nil, reference: rawFetchSide(path: fetchPath), others: [grdbFetchSide(path: fetchPath)], target: 2.0,
            iterations: 5),
        BenchmarkCase(
            name: "Persistence: one small persist (x1,000)",
            ours: nil, reference: rawSmallPersistSide(path: fetchPath), others: [grdbSmallPersistSide(path: fetchPath)],
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
