import Foundation

// FetchKit benchmarks: each case runs our side and its honest comparison interleaved in one
// process, after a warm-up, and reports medians. See Docs/Benchmarks.md.
//
//   swift run -c release --package-path Benchmarks FetchKitBenchmarks [--filter text] [--iterations n]

let arguments = Array(CommandLine.arguments.dropFirst())

func option(_ name: String, in arguments: [String] = CommandLine.arguments) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

if let memoryCase = option("--memory-case") {
    do {
        try runMemoryCase(memoryCase, fetchPath: option("--fetch-path") ?? "")
        print(peakResidentBytes() ?? 0)
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("memory case \(memoryCase) failed: \(error)\n".utf8))
        exit(1)
    }
}

if let count = option("--sync-server").flatMap({ Int($0) }) {
    // The sync memory case's server, in a process of its own: prints its URL, serves until its
    // standard input closes.
    do {
        try serveSyncRecords(count: count)
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("the sync server failed: \(error)\n".utf8))
        exit(1)
    }
}

if let pocketBase = option("--live-sync") {
    // Live changes against a real PocketBase (the binary's path): its own rows of the table.
    let finished = DispatchSemaphore(value: 0)
    // Detached: the top level runs on the main actor, which the wait below holds.
    Task.detached {
        do {
            try await runLiveSync(pocketBase: pocketBase)
        } catch {
            FileHandle.standardError.write(Data("the live-sync case failed: \(error)\n".utf8))
            exit(1)
        }
        finished.signal()
    }
    finished.wait()
    exit(0)
}

if arguments.contains("--sweep") {
    do {
        let sizes =
            option("--sizes").map { $0.split(separator: ",").compactMap { Int($0) } }
            ?? [1_000, 10_000, 100_000, 1_000_000]
        try runSweep(sizes: sizes, rounds: option("--iterations").flatMap { Int($0) } ?? 3)
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("the sweep failed: \(error)\n".utf8))
        exit(1)
    }
}

let filter = option("--filter")
let iterations = option("--iterations").flatMap { Int($0) }
let verbose = arguments.contains("--verbose")
verboseDiagnostics = verbose
let warmups = option("--warmups").flatMap { Int($0) }
onlySide = option("--side")

@MainActor func log(_ line: String) {
    if verbose { FileHandle.standardError.write(Data((line + "\n").utf8)) }
}

do {
    let scratch = try Scratch()
    let fetchPath = try makeFetchDatabase(scratch)
    var results: [CaseResult] = []
    for var benchmark in try allCases(scratch, fetchPath: fetchPath)
    where filter.map({ benchmark.name.localizedCaseInsensitiveContains($0) }) ?? true {
        if let iterations { benchmark.iterations = iterations }
        if let warmups { benchmark.warmups = warmups }
        FileHandle.standardError.write(Data("running \(benchmark.name)…\n".utf8))
        results.append(try run(benchmark, log: log))
    }
    print("")
    printTable(results)
    if filter == nil || "cache".localizedCaseInsensitiveContains(filter ?? "") {
        try printCacheBytesTable(count: 1_000)
    }
    if filter == nil || "memory".localizedCaseInsensitiveContains(filter ?? "") {
        print("")
        print("| memory case | peak resident memory |")
        print("|---|---:|")
        for memoryCase in memoryCases {
            FileHandle.standardError.write(Data("measuring \(memoryCase.name)…\n".utf8))
            let bytes = try measurePeakMemory(ofCase: memoryCase.name, fetchPath: fetchPath)
            print("| \(memoryCase.name) | \(String(format: "%.1f MiB", Double(bytes) / 1_048_576)) |")
        }
    }
    var machine = ProcessInfo.processInfo.hostName
    machine += ", \(ProcessInfo.processInfo.activeProcessorCount) cores, "
    machine += String(format: "%.0f GiB", Double(ProcessInfo.processInfo.physicalMemory) / 1_073_741_824)
    print("\nMachine: \(machine); \(ProcessInfo.processInfo.operatingSystemVersionString)")
} catch {
    FileHandle.standardError.write(Data("benchmark failed: \(error)\n".utf8))
    exit(1)
}
