// A second process for HTTPCache's shared-folder tests.
//
// Usage:
//   HTTPCacheWorker <folder> <base URL> <rounds>
//       Fetches /shared/0 to /shared/3 in turn through a disk cache in <folder> (no memory
//       front), so every read is a read of the file. Every third fetch revalidates (the
//       server answers with a new body, which is stored); the others are served from the
//       stored file while it is fresh. Every body must be whole (see VersionedBody): the
//       first that is not is named on stderr and the exit status is 1. Otherwise it prints
//       "ok <hits> <rounds>" and exits 0.
import FetchKit
import Foundation
import Locking
import TestSupport

struct SharedPath: Endpoint {
    var baseURL: URL
    var path: String
    var cachePolicy: CachePolicy
}

/// Counts the fetches answered from the cache file.
final class HitCounter: FetchObserver {
    let hits = Locked(0)

    func requestDidFinish(_ request: RequestSummary, metrics: FetchMetrics) {
        if metrics.cacheUse == .hit { hits.withLock { $0 += 1 } }
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(1)
}

let arguments = CommandLine.arguments
guard arguments.count == 4, let baseURL = URL(string: arguments[2]), let rounds = Int(arguments[3]) else {
    fail("usage: HTTPCacheWorker <folder> <base URL> <rounds>")
}
let cache: HTTPCache
do {
    cache = try HTTPCache(directory: URL(fileURLWithPath: arguments[1]), memoryBytes: 0)
} catch {
    fail("HTTPCacheWorker: \(error)")
}
let counter = HitCounter()
let client = FetchClient {
    $0.cache = cache
    $0.observers = [counter]
}
for round in 0..<rounds {
    let path = "/shared/\(round % 4)"
    let endpoint = SharedPath(baseURL: baseURL, path: path, cachePolicy: round % 3 == 0 ? .revalidate : .useProtocol)
    let text: String
    do {
        text = try await client.fetch(endpoint, extracting: .string)
    } catch {
        fail("round \(round): \(path) failed: \(error)")
    }
    guard VersionedBody.isWhole(text, path: path) else {
        fail("round \(round): \(path) came back damaged (\(text.utf8.count) bytes: \(text.prefix(40))…)")
    }
}
FileHandle.standardOutput.write(Data("ok \(counter.hits.current) \(rounds)\n".utf8))
