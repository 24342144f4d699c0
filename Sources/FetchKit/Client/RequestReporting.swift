import Dispatch
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a ``RequestExecution`` tells the world as it goes: progress to the caller who follows
/// it, and the start, retries and end (with its ``FetchMetrics``) to the client's observers.
struct RequestReporting: Sendable {
    /// The progress reports of the caller's handler and of its task's progress sequences, when
    /// the request has either.
    let progress: ProgressReporter?
    let observers: [any FetchObserver]
    /// When the request started, read only for observers (the clock is not read when there are none).
    let startedAt: ContinuousClock.Instant?

    init(
        observers: [any FetchObserver], progressInterval: Duration, delivery: Delivery,
        progress: (@Sendable (TransferProgress) -> Void)?, channel: ProgressChannel? = nil
    ) {
        if progress != nil || channel != nil {
            let queue: DispatchQueue? =
                switch delivery {
                case .queue(let queue): queue
                case .immediate: nil
                }
            // The caller's closure follows from the start; a task's progress sequence once made.
            let reporter = ProgressReporter(interval: progressInterval, delivery: queue, listening: progress != nil) {
                report in
                progress?(report)
                channel?.send(report)
            }
            channel?.onListen { [weak reporter] in reporter?.listen() }
            self.progress = reporter
        } else {
            self.progress = nil
        }
        self.observers = observers
        self.startedAt = observers.isEmpty ? nil : .now
    }

    /// Whether observers follow the request (its waits are then timed).
    var isObserved: Bool { !observers.isEmpty }

    /// Tells observers that attempt `attempt` is being sent.
    func willStart(_ adapted: AdaptedRequest, attempt: Int) {
        guard !observers.isEmpty else { return }
        let summary = adapted.summary.with(attempt: attempt)
        for observer in observers { observer.requestWillStart(summary) }
    }

    /// Tells observers that attempt `attempt` failed with `error` and is retried after `delay`.
    func willRetry(_ adapted: AdaptedRequest?, attempt: Int, after delay: Duration, because error: FetchError) {
        guard !observers.isEmpty, let summary = adapted?.summary else { return }
        let described = error.describing("\(summary)")
        for observer in observers {
            observer.requestWillRetry(summary.with(attempt: attempt), after: delay, because: described)
        }
    }

    /// Polls the exchange's progress for the caller who follows it.
    func watchProgress(of task: any TransportTask, _ adapted: AdaptedRequest) {
        guard let progress else { return }
        let bodySize = adapted.bodySize
        progress.watch {
            guard var report = task.progress else { return nil }
            if report.totalBytesToSend == nil || report.totalBytesToSend == 0 { report.totalBytesToSend = bodySize }
            return report
        }
    }

    /// Sends the last progress report and tells observers how the request ended (`failure`
    /// described, `nil` on success). `received` is a download's size once in place.
    func finish(
        succeeded: Bool, failure: FetchError?, _ adapted: AdaptedRequest?, _ ended: RequestExecution.Ended,
        received: @autoclosure () -> Int64?
    ) {
        if let progress {
            progress.finish(finalProgress(succeeded: succeeded, adapted, ended, received: received))
        }
        guard !observers.isEmpty, let summary = adapted?.summary else { return }
        let metrics = FetchMetrics(
            error: failure, statusCode: ended.lastStatus, attempts: ended.attemptsStarted,
            bytesReceived: ended.lastBytes, duration: startedAt.map { ContinuousClock.now - $0 } ?? .zero,
            waitForConnection: ended.waited, cacheUse: ended.cacheUse)
        for observer in observers {
            observer.requestDidFinish(summary.with(attempt: max(1, ended.attempt)), metrics: metrics)
        }
    }

    /// The last progress report: the whole transfer on success, the last polled one otherwise.
    private func finalProgress(
        succeeded: Bool, _ adapted: AdaptedRequest?, _ ended: RequestExecution.Ended, received: () -> Int64?
    ) -> TransferProgress {
        guard succeeded else {
            var report = progress?.lastReport ?? TransferProgress(totalBytesToSend: adapted?.bodySize)
            report.isFinished = true
            return report
        }
        let received = received() ?? Int64(ended.lastBytes)
        let sent = ended.cacheUse == .hit ? 0 : adapted?.bodySize ?? 0
        return TransferProgress(
            bytesSent: sent, totalBytesToSend: sent, bytesReceived: received, totalBytesToReceive: received,
            isFinished: true)
    }
}
