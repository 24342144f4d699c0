import Foundation
import Locking
import TestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Plain URLSession calls for tests of the stub server itself (independent of FetchKit).
enum HTTP {
    struct Reply: Sendable {
        var status: Int
        var headers: [String: String]
        var body: Data
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    static func send(_ request: URLRequest, session: URLSession = .shared) async -> Result<Reply, URLError> {
        await withCheckedContinuation { continuation in
            let task = session.dataTask(with: request) { data, response, error in
                if let error {
                    continuation.resume(returning: .failure((error as? URLError) ?? URLError(.unknown)))
                    return
                }
                guard let http = response as? HTTPURLResponse else {
                    continuation.resume(returning: .failure(URLError(.badServerResponse)))
                    return
                }
                var headers: [String: String] = [:]
                for (key, value) in http.allHeaderFields {
                    headers[String(describing: key).lowercased()] = String(describing: value)
                }
                continuation.resume(
                    returning: .success(Reply(status: http.statusCode, headers: headers, body: data ?? Data())))
            }
            task.resume()
        }
    }

    static func get(_ url: URL, timeout: TimeInterval = Patience.hang.timeInterval) async -> Result<Reply, URLError> {
        var request = URLRequest(url: url)
        request.timeoutInterval = timeout
        return await send(request)
    }
}
