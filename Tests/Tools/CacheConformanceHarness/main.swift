// A caching forward proxy for measuring FetchKit's HTTP cache against the public HTTP cache
// conformance suite (github.com/http-tests/cache-tests, the suite behind cache-tests.fyi).
//
// The suite's client sends each test's requests here; every request is fetched with a
// `FetchClient` that has an `HTTPCache`, the way an app fetches, from the suite's origin
// server, and the client's answer (status, headers, body) goes back to the suite's client,
// which scores it. Nothing of the suite is part of this repository: run it with
// `Scripts/cache-conformance.sh <path of a checkout of the suite>`.
//
// Usage: CacheConformanceHarness <origin URL> <listen port> [--disk <folder>] [--offline]

import Dispatch
import FetchKit
import FetchKitTesting
import Foundation
import Locking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The answer a fetch gave, as the suite's client will see it.
struct Answer: Sendable {
    var status: Int
    var headers: [(String, String)]
    var body: Data
}

/// One request of the suite's client, replayed as an endpoint.
struct Forwarded: Endpoint {
    var baseURL: URL
    var path: String { "" }
    var method: HTTPMethod
    var headers: [String: String]
    var body: RequestBody?
    var cachePolicy: CachePolicy
}

let arguments = CommandLine.arguments
guard arguments.count >= 3, let origin = URL(string: arguments[1]), let port = UInt16(arguments[2]) else {
    FileHandle.standardError.write(
        Data("usage: CacheConformanceHarness <origin URL> <port> [--disk <folder>] [--offline]\n".utf8))
    exit(2)
}

// `--offline`: the cache serves what it holds, however stale, when the server cannot be reached.
let offlinePolicy: HTTPCache.OfflinePolicy = arguments.contains("--offline") ? .serveStored : .fail
let cache: HTTPCache
if let index = arguments.firstIndex(of: "--disk"), index + 1 < arguments.count {
    let folder = URL(fileURLWithPath: arguments[index + 1])
    try? FileManager.default.removeItem(at: folder)
    do {
        cache = try HTTPCache(directory: folder, maximumBytes: 256 << 20, memoryBytes: 0, offlinePolicy: offlinePolicy)
    } catch {
        FileHandle.standardError.write(Data("\(error)\n".utf8))
        exit(1)
    }
} else {
    cache = HTTPCache(maximumBytes: 256 << 20, offlinePolicy: offlinePolicy)
}

let client = FetchClient { configuration in
    configuration.cache = cache
    configuration.acceptableStatusCodes = Set(100..<1000)
    configuration.retryPolicy = .none
    configuration.timeout = .seconds(20)
    configuration.maximumConnectionsPerHost = 64
}

/// Answers the suite's requests with a FetchClient and its cache.
struct Proxy: Sendable {
    let origin: URL
    let client: FetchClient

    /// Request header fields that belong to the connection between the suite's client and this
    /// proxy, or that the transport sets itself.
    static let connectionFields: Set<String> = [
        "connection", "keep-alive", "host", "content-length", "transfer-encoding", "te", "upgrade",
        "proxy-connection", "accept-encoding", "fetchkit-cache-mode",
    ]

    static func policy(for mode: String?) -> CachePolicy {
        switch mode {
        case "no-store": .bypass
        case "reload": .reload
        case "no-cache": .revalidate
        case "force-cache": .forceCache
        case "only-if-cached": .onlyIfCached
        default: .useProtocol
        }
    }

    func answer(_ request: RecordedRequest) -> Answer {
        guard let url = URL(string: origin.absoluteString.trimmingSuffix("/") + request.target) else {
            return Answer(status: 400, headers: [], body: Data("bad target".utf8))
        }
        var headers: [String: String] = [:]
        for (name, value) in request.headers where !Self.connectionFields.contains(name.lowercased()) {
            headers[name] = value
        }
        let mode = request.header("fetchkit-cache-mode")
        // The suite's own bookkeeping (test configurations, server state) never goes through the cache.
        let isBookkeeping = !request.path.hasPrefix("/test/")
        let endpoint = Forwarded(
            baseURL: url, method: HTTPMethod(rawValue: request.method), headers: headers,
            body: request.body.isEmpty
                ? nil
                : RequestBody(
                    data: request.body, contentType: request.header("content-type") ?? "application/octet-stream"),
            cachePolicy: isBookkeeping ? .bypass : Self.policy(for: mode))
        let box = Locked<Answer?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            do throws(FetchError) {
                let value = try await client.fetch(
                    endpoint,
                    extracting: .custom { data, response in
                        var fields: [(String, String)] = []
                        for (name, value) in response.allHeaderFields {
                            if let name = name as? String, let value = value as? String { fields.append((name, value)) }
                        }
                        return Answer(status: response.statusCode, headers: fields, body: data)
                    })
                box.withLock { $0 = value }
            } catch {
                box.withLock {
                    $0 = Answer(
                        status: 502, headers: [("X-FetchKit-Error", "\(error.code)")], body: Data("\(error)".utf8))
                }
            }
            done.signal()
        }
        done.wait()
        return box.withLock { $0 } ?? Answer(status: 502, headers: [], body: Data())
    }

    static func raw(_ answer: Answer, head isHead: Bool) -> Data {
        let skipped: Set<String> = ["content-length", "transfer-encoding", "connection", "keep-alive"]
        var head = "HTTP/1.1 \(answer.status) Status\r\n"
        for (name, value) in answer.headers where !skipped.contains(name.lowercased()) {
            head += "\(name): \(value)\r\n"
        }
        let noBody = answer.status == 204 || answer.status == 304 || (100..<200).contains(answer.status)
        if !noBody { head += "Content-Length: \(answer.body.count)\r\n" }
        head += "Connection: close\r\n\r\n"
        var bytes = Data(head.utf8)
        if !noBody, !isHead { bytes.append(answer.body) }
        return bytes
    }
}

let server = StubServer()
let proxy = Proxy(origin: origin, client: client)
server.route(nil, "/*") { request in .raw(Proxy.raw(proxy.answer(request), head: request.method == "HEAD")) }
do {
    try server.start(port: port)
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}
print("FetchKit cache proxy on \(server.baseURL.absoluteString) for \(origin.absoluteString)")
while true { sleep(3600) }

extension String {
    /// The string without `suffix` at its end, if it is there.
    func trimmingSuffix(_ suffix: String) -> String { hasSuffix(suffix) ? String(dropLast(suffix.count)) : self }
}
