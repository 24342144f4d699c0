// Endpoint building with hostile strings: the input, cut at NUL bytes, is a path, query names
// and values, and a header; the first byte picks a base URL. A request is built or a typed
// error thrown; a built URL reads back the query items it was given (`&`, `=`, `+`, `#`, `%`,
// line ends and any Unicode survive their encoding), and the fast join and Foundation's
// `URLComponents` name the same host.
import Foundation

@testable import FetchKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

let bases = [
    "https://api.example.com", "https://api.example.com/3/", "http://127.0.0.1:8080/api",
    "https://example.com/v1?key=a", "https://[::1]:443/x", "https://user@example.com/", "https://EXAMPLE.com:080",
].compactMap(URL.init(string:))

struct HostileEndpoint: Endpoint {
    var baseURL: URL
    var path: String
    var queryItems: [URLQueryItem]
    var headers: [String: String]
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard count > 0 else { return 0 }
    let input = UnsafeBufferPointer(start: bytes, count: count)
    let base = bases[Int(input[0]) % bases.count]
    let parts = input[1...].split(separator: 0, omittingEmptySubsequences: false).map {
        String(decoding: $0, as: UTF8.self)
    }
    let path = parts.first ?? ""
    var items: [URLQueryItem] = []
    var index = 1
    while index + 1 < parts.count - 1 {
        items.append(URLQueryItem(name: parts[index], value: parts[index + 1]))
        index += 2
    }
    let header = parts.count > 1 ? parts[parts.count - 1] : ""
    let endpoint = HostileEndpoint(baseURL: base, path: path, queryItems: items, headers: ["X-Fuzz": header])
    guard let built = try? endpoint.builtRequest(defaultTimeout: .seconds(10), base: nil, handling: .inline),
        let url = built.request.url
    else { return 0 }
    if !items.isEmpty, let read = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems {
        let given = items.map { ($0.name, $0.value ?? "") }
        let back = read.suffix(items.count).map { ($0.name, $0.value ?? "") }
        guard given.elementsEqual(back, by: { $0 == $1 }) else {
            fatalError("the query \(given) reads back as \(back) from \(url.absoluteString)")
        }
    }
    if let joined = PercentEncoding.joined(base.absoluteString, path: path, query: items),
        let fast = joined.hostKey, let slow = try? URLValidation.hostKey(of: joined.url), fast != slow
    {
        fatalError("the fast join names the host \(fast), URLComponents \(slow), for \(joined.url.absoluteString)")
    }
    return 0
}
