// The README's opt-in sample, exactly as printed there (compiled here).
import FetchKit
import FetchKitObservability
import Logging

enum ReadmeSample {
    static func make() -> FetchClient {
        let logger = Logger(label: "app.network")
        let client = FetchClient { $0.observers = [LoggingObserver(logger), MetricsObserver()] }
        return client
    }
}
