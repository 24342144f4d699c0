import ExampleSupport
import FetchKit
import FetchKitOperations
import Foundation

/// `mustc refresh [--operations] [--concurrency <n>]`: fetches every stored movie's popularity again.
///
/// Every stored movie with a TMDB id is fetched again by id, at most `concurrency` at a
/// time, with FetchKit's fan-out (`FetchClient.fetchAll`) or, with `--operations`, with
/// an Operation pipeline (`FetchOperation`s and `OperationQueue.addRefresh`). Changed
/// popularity values are written back in one `persist` block, with a history sample for each
/// changed movie and a record of the refresh (unless it failed), and the refresh reports one
/// ``RefreshOutcome``: `newData`, `noData` or `failed`. Ctrl-C while the movies are fetched
/// cancels the fetches and writes nothing.
struct RefreshCommand {
    let shelf: MovieShelf
    let connection: TMDBConnection
    let useOperations: Bool
    let concurrency: Int

    /// Runs the refresh, printing progress, changes and the outcome.
    ///
    /// - Returns: the outcome (the caller turns `failed` into exit status 1).
    func run() async throws -> (outcome: RefreshOutcome, failures: [String]) {
        Interrupts.keep("no popularity was changed")
        let stored = try await shelf.all()
        let movies = stored.filter { $0.remoteID != nil }
        let skipped = stored.count - movies.count
        let form = useOperations ? "FetchOperations on an OperationQueue" : "fetchAll"
        show(
            "Refreshing \(movies.count) movie\(movies.count == 1 ? "" : "s") with \(form), at most \(concurrency) at a time…"
        )
        if skipped > 0 {
            show("(\(skipped) without a TMDB match skipped; 'mustc add <title>' looks one up again.)")
        }
        let progress = ProgressPrinter(total: movies.count)
        let (outcome, results) =
            useOperations
            ? await refreshWithOperations(movies, progress: progress)
            : await refreshWithFanOut(movies, progress: progress)
        // Interrupted while fetching: nothing is written, every movie keeps its value.
        try Task.checkCancellation()

        var changes: [UUID: Double] = [:]
        var lines: [String] = []
        var failures: [(title: String, reason: String)] = []
        for (movie, result) in zip(movies, results) {
            switch result {
            case .success(let fetched):
                guard Self.isChanged(movie, fetched), let popularity = fetched.popularity else { continue }
                changes[movie.id] = popularity
                lines.append(MovieFormat.change(movie, to: popularity))
            case .failure(let error):
                failures.append((movie.title, connection.explain(error)))
            }
        }
        if !lines.isEmpty {
            show("Changed:")
            for line in lines { show("  \(line)") }
        }
        let failureLines = Self.group(failures)
        for line in failureLines { show("  could not refresh \(line)") }
        let written = outcome == .failed && changes.isEmpty ? 0 : try await shelf.saveRefresh(changes)
        let saved = "\(written) change\(written == 1 ? "" : "s")"
        Interrupts.keep(written == 0 ? "no popularity was changed" : "the refresh saved \(saved)")
        if written > 0 { show("Saved \(saved).") }
        let notModified = connection.notModifiedCount
        if notModified > 0 {
            show(
                "\(notModified) of \(movies.count) answered 304 Not Modified: unchanged since the last refresh, "
                    + "served from the HTTP cache.")
        }
        if let peak = connection.offlinePeakRequests, !movies.isEmpty {
            show("The offline server had at most \(peak) request\(peak == 1 ? "" : "s") in flight at once.")
        }
        show("outcome: \(outcome.rawValue)")
        return (outcome, failureLines)
    }

    /// One line per distinct reason, naming its movies: `"A", "B": TMDB refused the API key …`.
    static func group(_ failures: [(title: String, reason: String)]) -> [String] {
        var reasons: [String] = []
        var titles: [String: [String]] = [:]
        for failure in failures {
            if titles[failure.reason] == nil { reasons.append(failure.reason) }
            titles[failure.reason, default: []].append("\"\(failure.title)\"")
        }
        return reasons.map { reason in "\(titles[reason, default: []].joined(separator: ", ")): \(reason)" }
    }

    /// Whether a fetched movie changes the stored one: a popularity that differs.
    static func isChanged(_ movie: Movie, _ fetched: TMDBMovie) -> Bool {
        guard let popularity = fetched.popularity else { return false }
        return popularity != movie.popularity
    }

    /// The fan-out form: one `fetchAll` call, one aggregated report.
    private func refreshWithFanOut(
        _ movies: [Movie], progress: ProgressPrinter
    ) async
        -> (RefreshOutcome, [Result<TMDBMovie, any Error>])
    {
        let connection = connection
        let report = await connection.client.fetchAll(
            movies,
            endpoint: { connection.movie($0.remoteID ?? 0) },
            extracting: .decode(TMDBMovie.self),
            using: FanOut(maximumConcurrency: concurrency),
            changed: Self.isChanged,
            progress: { progress.report($0) })
        return (report.outcome, report.results)
    }

    /// The Operation form: one `FetchOperation` per movie and a completion operation after them.
    private func refreshWithOperations(
        _ movies: [Movie], progress: ProgressPrinter
    ) async
        -> (RefreshOutcome, [Result<TMDBMovie, any Error>])
    {
        let connection = connection
        let queue = OperationQueue()
        queue.name = "mustc.refresh"
        queue.maxConcurrentOperationCount = concurrency
        let operations = movies.map { movie in
            FetchOperation<TMDBMovie>(changed: { Self.isChanged(movie, $0) }) {
                do {
                    let fetched = try await connection.client.fetch(
                        connection.movie(movie.remoteID ?? 0), extracting: .decode(TMDBMovie.self))
                    progress.record(Self.isChanged(movie, fetched) ? .changed : .unchanged)
                    return fetched
                } catch {
                    progress.record(.failed)
                    throw error
                }
            }
        }
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<RefreshOutcome, Never>) in
                queue.addRefresh(operations) { continuation.resume(returning: $0) }
            }
        } onCancel: {
            queue.cancelAllOperations()
        }
        return (outcome, operations.map { $0.result ?? .failure(CancellationError()) })
    }
}

/// Prints `  2/5 refreshed (1 changed, 0 failed)` after each movie, in order, from any thread.
final class ProgressPrinter: @unchecked Sendable {
    // @unchecked Sendable: `tally` is only touched while `lock` is held, and the line is
    // printed under the same lock so lines come out in order.
    private let lock = NSLock()
    private var tally = FanOutProgress(completed: 0, total: 0)

    init(total: Int) {
        tally.total = total
    }

    /// Records one finished movie (the Operation form, which has no progress callback).
    func record(_ outcome: ItemOutcome) {
        lock.withLock {
            tally.completed += 1
            switch outcome {
            case .changed: tally.changed += 1
            case .unchanged: tally.unchanged += 1
            case .failed: tally.failed += 1
            }
            Self.write(tally)
        }
    }

    /// Prints a fan-out's own progress value.
    func report(_ progress: FanOutProgress) {
        lock.withLock { Self.write(progress) }
    }

    private static func write(_ progress: FanOutProgress) {
        show(
            "  \(progress.completed)/\(progress.total) refreshed (\(progress.changed) changed, \(progress.failed) failed)"
        )
    }
}
