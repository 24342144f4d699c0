public import Dispatch
public import Foundation
import Locking

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// Downloads files keyed by an identifier: joins requests for a key in flight, moves each
/// finished file into place atomically, and says once when a batch of downloads has ended.
///
/// Every transfer goes through its ``FetchClient``'s pipeline, as a `fetch` does: the
/// client's adapters, per-host limit, timeout, retries with `Retry-After`, status
/// validation, observers and redaction (``FetchClient/download(_:to:group:progress:)-(URLRequest,_,_,_)``).
///
/// - A request for a key already in flight joins it: no second transfer starts, and every
///   caller gets the same result (the file at the first request's destination).
/// - The transport writes into a hidden temporary file next to the destination; once the
///   transfer succeeds the file is renamed over the destination in one atomic step, so a
///   reader never sees a half-written file. On any failure the temporary file is removed.
/// - A batch begins when a download starts while none is in flight and ends when the last
///   one in flight ends, succeeded or failed. Handlers registered with
///   ``allFinished(queue:_:)`` run exactly once, at the end of the batch, then are released.
///
/// For example, a download of recent photos:
///
/// ```swift
/// let downloads = DownloadCoordinator(client: client)
/// let file = try await downloads.download(recentPhotosRequest, key: "recent-photos", to: cacheFile)
/// downloads.allFinished { summary in backgroundCompletionHandler() }
/// ```
///
/// All methods are safe to call from any thread.
public final class DownloadCoordinator: Sendable {
    typealias Waiter = @Sendable (Result<URL, any Error>) -> Void

    struct Entry {
        var destination: URL
        var waiters: [UUID: Waiter] = [:]
        var task: Task<Void, Never>?
    }

    struct State {
        var entries: [String: Entry] = [:]
        var batch = DownloadBatchSummary()
        var lastBatch = DownloadBatchSummary()
        var batchHandlers: [@Sendable (DownloadBatchSummary) -> Void] = []
        /// The latest progress of each download of the batch, by key.
        var progress: [String: TransferProgress] = [:]
        var progressWatchers: [@Sendable (TransferProgress) -> Void] = []
        var lastProgressReport = ContinuousClock.Instant.now
    }

    /// The client whose pipeline runs every transfer.
    public let client: FetchClient
    private let state = Locked(State())
    /// Where callbacks run when a call names no queue: completions, batch summaries and
    /// progress reports, one at a time and in order.
    private let callbackQueue = DispatchQueue(label: "FetchKit.DownloadCoordinator")

    /// Creates a coordinator.
    ///
    /// - Parameter client: the client whose pipeline (adapters, limits, retries, validation,
    ///   observers, redaction) runs the transfers; a client with the default configuration
    ///   when omitted.
    public init(client: FetchClient = FetchClient()) {
        self.client = client
    }

    /// The keys of the downloads in flight.
    public var activeKeys: Set<String> {
        state.withLock { Set($0.entries.keys) }
    }

    /// Whether a download for `key` is in flight.
    ///
    /// - Parameter key: the download's key.
    /// - Returns: `true` while the download runs.
    public func isDownloading(_ key: String) -> Bool {
        state.withLock { $0.entries[key] != nil }
    }

    /// How many callers are waiting for the download of `key` (0 when none is in flight).
    func waiterCount(forKey key: String) -> Int {
        state.withLock { $0.entries[key]?.waiters.count ?? 0 }
    }

    /// Downloads `request` to `destination`, or joins the download in flight for `key`.
    ///
    /// Cancelling the calling task ends this call with `CancellationError`; the download
    /// itself is cancelled only when no other caller is still waiting for it.
    ///
    /// - Parameters:
    ///   - request: the request to send (ignored when joining); the client's adapters are applied to it.
    ///   - key: identifies the download, such as `"recent-photos"` or a photo id.
    ///   - destination: where the finished file goes, replacing any file there (ignored
    ///     when joining: a joining caller gets the first caller's destination).
    /// - Returns: the URL of the finished file.
    /// - Throws: ``DownloadError`` when the download fails, or `CancellationError` when the
    ///   calling task is cancelled.
    public func download(_ request: URLRequest, key: String, to destination: URL) async throws -> URL {
        try await download(transfer(request), key: key, to: destination)
    }

    func download(_ transfer: @escaping Transfer, key: String, to destination: URL) async throws -> URL {
        let id = UUID()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<URL, any Error>) in
                enqueue(transfer, key: key, destination: destination, waiterID: id) { continuation.resume(with: $0) }
                if Task.isCancelled { abandon(key: key, waiterID: id) }
            }
        } onCancel: {
            abandon(key: key, waiterID: id)
        }
    }

    /// Downloads `request` to `destination`, or joins the download in flight for `key`, and
    /// calls `completion` exactly once with the file's URL or the error.
    ///
    /// - Parameters:
    ///   - request: the request to send (ignored when joining).
    ///   - key: identifies the download.
    ///   - destination: where the finished file goes (ignored when joining).
    ///   - queue: where `completion` runs; when `nil`, the coordinator's own serial queue.
    ///   - completion: receives the file's URL or the ``DownloadError``, exactly once.
    public func download(
        _ request: URLRequest, key: String, to destination: URL, queue: DispatchQueue? = nil,
        completion: @escaping @Sendable (Result<URL, any Error>) -> Void
    ) {
        download(transfer(request), key: key, to: destination, queue: queue, completion: completion)
    }

    func download(
        _ transfer: @escaping Transfer, key: String, to destination: URL, queue: DispatchQueue?,
        completion: @escaping @Sendable (Result<URL, any Error>) -> Void
    ) {
        let queue = queue ?? callbackQueue
        enqueue(transfer, key: key, destination: destination, waiterID: UUID()) { result in
            queue.async { completion(result) }
        }
    }

    /// Cancels the download for `key`; every caller waiting for it gets
    /// ``DownloadError/Code/cancelled``.
    ///
    /// - Parameter key: the download's key.
    public func cancel(key: String) {
        state.withLock { $0.entries[key]?.task }?.cancel()
    }

    /// Cancels every download in flight.
    public func cancelAll() {
        for task in state.withLock({ $0.entries.values.compactMap(\.task) }) { task.cancel() }
    }

    /// Calls `handler` once, when the current batch of downloads ends; at once if none is in flight.
    ///
    /// The handler receives the batch's summary (the last batch's when none is in flight)
    /// and is released after it runs. Register it after starting the batch's downloads.
    ///
    /// - Parameters:
    ///   - queue: where `handler` runs; when `nil`, the coordinator's own serial queue.
    ///   - handler: receives the summary of the batch, exactly once.
    public func allFinished(
        queue: DispatchQueue? = nil, _ handler: @escaping @Sendable (DownloadBatchSummary) -> Void
    ) {
        let queue = queue ?? callbackQueue
        let deliver: @Sendable (DownloadBatchSummary) -> Void = { summary in queue.async { handler(summary) } }
        let idleSummary: DownloadBatchSummary? = state.withLock { state in
            guard state.entries.isEmpty else {
                state.batchHandlers.append(deliver)
                return nil
            }
            return state.lastBatch
        }
        if let idleSummary { deliver(idleSummary) }
    }

    /// The progress of the current batch: the sum over its downloads, finished ones
    /// included; totals are known once every download's are.
    public var batchProgress: TransferProgress {
        state.withLock { TransferProgress.sum($0.progress.values, isFinished: $0.entries.isEmpty) }
    }

    /// Calls `handler` with the current batch's progress as it changes (at most every
    /// ``FetchClient/Configuration-swift.struct/progressInterval`` of the client), and once
    /// more, last, with ``TransferProgress/isFinished`` set when the batch ends; then
    /// releases it. With no download in flight, it is called once, at once, with a
    /// finished report.
    ///
    /// - Parameters:
    ///   - queue: where `handler` runs; when `nil`, the coordinator's own serial queue.
    ///   - handler: receives the batch's progress.
    public func followBatchProgress(
        queue: DispatchQueue? = nil, _ handler: @escaping @Sendable (TransferProgress) -> Void
    ) {
        let deliver: @Sendable (TransferProgress) -> Void = { report in
            if let queue { queue.async { handler(report) } } else { handler(report) }
        }
        let idle = state.withLock { state -> Bool in
            guard state.entries.isEmpty else {
                state.progressWatchers.append(deliver)
                return false
            }
            return true
        }
        if idle { callbackQueue.async { deliver(TransferProgress(isFinished: true)) } }
    }

    /// The current batch's progress as an `AsyncSequence` that ends with the batch (see
    /// ``followBatchProgress(queue:_:)``).
    ///
    /// ```swift
    /// for await progress in downloads.batchProgressUpdates() {
    ///     print("\(progress.bytesReceived) bytes of \(progress.totalBytesToReceive.map(String.init) ?? "?")")
    /// }
    /// ```
    ///
    /// - Returns: the reports, ending with one whose ``TransferProgress/isFinished`` is set.
    public func batchProgressUpdates() -> AsyncStream<TransferProgress> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: TransferProgress.self, bufferingPolicy: .bufferingNewest(16))
        followBatchProgress { report in
            continuation.yield(report)
            if report.isFinished { continuation.finish() }
        }
        return stream
    }

    /// Records one download's progress and reports the batch's, throttled.
    private func update(key: String, _ report: TransferProgress) {
        let interval = client.configuration.progressInterval
        state.withLock { state in
            guard state.entries[key] != nil else { return }
            var report = report
            report.isFinished = false
            state.progress[key] = report
            let now = ContinuousClock.now
            guard !state.progressWatchers.isEmpty, now - state.lastProgressReport >= interval else { return }
            state.lastProgressReport = now
            let total = TransferProgress.sum(state.progress.values, isFinished: false)
            let watchers = state.progressWatchers
            // Queued under the lock, so reports keep their order.
            callbackQueue.async { for watcher in watchers { watcher(total) } }
        }
    }

    /// Waits until the current batch of downloads ends and returns its summary.
    ///
    /// - Returns: the batch's summary, or the last batch's when none is in flight.
    public func allFinished() async -> DownloadBatchSummary {
        await withCheckedContinuation { continuation in
            allFinished { continuation.resume(returning: $0) }
        }
    }

    // MARK: Internals

    /// One transfer into a staging file, through the client's pipeline, reporting its progress.
    typealias Transfer =
        @Sendable (_ staging: URL, _ progress: @escaping @Sendable (TransferProgress) -> Void)
        async throws(FetchError) -> Void

    private func transfer(_ request: URLRequest) -> Transfer {
        let client = client
        return { staging, progress throws(FetchError) in
            try await client.download(request, to: staging, progress: progress)
        }
    }

    private func enqueue(
        _ transfer: @escaping Transfer, key: String, destination: URL, waiterID: UUID, waiter: @escaping Waiter
    ) {
        state.withLock { state in
            if state.entries[key] != nil {
                state.entries[key]?.waiters[waiterID] = waiter
                return
            }
            var entry = Entry(destination: destination)
            entry.waiters[waiterID] = waiter
            state.progress[key] = TransferProgress()
            entry.task = Task {
                let result = await Self.perform(
                    transfer, key: key, destination: destination,
                    progress: { [weak self] in self?.update(key: key, $0) })
                self.complete(key: key, with: result)
            }
            state.entries[key] = entry
        }
    }

    private func abandon(key: String, waiterID: UUID) {
        let (waiter, orphanedTask): (Waiter?, Task<Void, Never>?) = state.withLock { state in
            guard let waiter = state.entries[key]?.waiters.removeValue(forKey: waiterID) else { return (nil, nil) }
            let orphaned = state.entries[key]?.waiters.isEmpty == true ? state.entries[key]?.task : nil
            return (waiter, orphaned)
        }
        waiter?(.failure(CancellationError()))
        orphanedTask?.cancel()
    }

    private func complete(key: String, with result: Result<URL, any Error>) {
        let (waiters, handlers, summary) = state.withLock { state in
            let waiters = state.entries.removeValue(forKey: key).map { Array($0.waiters.values) } ?? []
            if state.entries.isEmpty {
                // The batch ends: one finished report, then the watchers are released.
                let total = TransferProgress.sum(state.progress.values, isFinished: true)
                let watchers = state.progressWatchers
                state.progressWatchers.removeAll()
                state.progress.removeAll()
                callbackQueue.async { for watcher in watchers { watcher(total) } }
            }
            switch result {
            case .success: state.batch.succeeded.append(key)
            case .failure(let error): state.batch.failed[key] = error
            }
            guard state.entries.isEmpty else {
                return (waiters, [@Sendable (DownloadBatchSummary) -> Void](), DownloadBatchSummary())
            }
            let summary = state.batch
            let handlers = state.batchHandlers
            state.lastBatch = summary
            state.batch = DownloadBatchSummary()
            state.batchHandlers.removeAll()
            return (waiters, handlers, summary)
        }
        for waiter in waiters { waiter(result) }
        for handler in handlers { handler(summary) }
    }

    private static func perform(
        _ transfer: Transfer, key: String, destination: URL,
        progress: @escaping @Sendable (TransferProgress) -> Void
    ) async -> Result<URL, any Error> {
        let directory = destination.deletingLastPathComponent()
        let staging = directory.appendingPathComponent(
            ".\(destination.lastPathComponent).\(UUID().uuidString).download")
        do {
            try createDirectory(directory, key: key)
            do {
                try await transfer(staging, progress)
            } catch {
                throw DownloadError(key: key, cause: error)
            }
            if Task.isCancelled { throw DownloadError(key: key, cause: FetchError(code: .cancelled)) }
            try moveAtomically(staging, to: destination, key: key)
            return .success(destination)
        } catch {
            try? FileManager.default.removeItem(at: staging)
            return .failure(error)
        }
    }

    private static func createDirectory(_ directory: URL, key: String) throws {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw DownloadError(
                code: .fileSystem, key: key,
                detail: "cannot create the folder \(directory.path): \(error.localizedDescription)")
        }
    }

    /// Renames `staging` over `destination`: atomic, because both are in the same folder.
    private static func moveAtomically(_ staging: URL, to destination: URL, key: String) throws {
        guard rename(staging.path, destination.path) == 0 else {
            let reason = String(cString: strerror(errno))
            throw DownloadError(
                code: .fileSystem, key: key,
                detail: "cannot move the downloaded file into place at \(destination.path): \(reason)")
        }
    }
}
