// The README's opt-in sample, exactly as printed there (compiled here).
import FetchKit
import FetchKitAsyncHTTPClient

enum ReadmeSample {
    static func make() -> FetchClient {
        let client = FetchClient { $0.transport = AsyncHTTPClientTransport() }
        return client
    }
}
