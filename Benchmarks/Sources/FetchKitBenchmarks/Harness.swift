import Foundation

/// One side of a comparison: a name and a closure that performs one sample and returns
/// the time of its measured region (set-up that is not part of the workload stays outside).
struct Side {
    var name: String
    var sample: () throws -> Duration
}

/// A benchmark case: our side, the reference it is compared with, optional extra sides shown
/// for context, and the target ratio ours / reference must not exceed.
struct BenchmarkCase {
    var name: String
    /// Our side; nil until the module it measures has landed (the row then says so).
    var ours: Side?
    var reference: Side
    var others: [Side] = []
    /// The highest acceptable ratio ours / reference, or nil for a case that is only reported.
    var target: Double?
    /// A fixed ideal time to compare with instead of the reference's measured time.
    var idealTime: Duration? = nil
    var iterations: Int = 7
    var warmups: Int = 1
    var setUp: () throws -> Void = {}
    var tearDown: () -> Void = {}
}

/// The medians of one case's sides.
struct CaseResult {
    var name: String
    var ours: Duration?
    var referenceName: String
    var reference: Duration
    var others: [(String, Duration)]
    var target: Double?
    var ratio: Double? { ours.map { $0.seconds / reference.seconds } }
    var holds: Bool? { ratio.flatMap { ratio in target.map { ratio <= $0 } } }
}

extension Duration {
    /// The duration in seconds, as a double.
    var seconds: Double {
        let (s, atto) = components
        return Double(s) + Double(atto) / 1e18
    }

    /// A short human-readable form: `812 µs`, `41.3 ms`, `3.41 s`.
    var short: String {
        let s = seconds
        if s >= 1 { return String(format: "%.3f s", s) }
        if s >= 1e-3 { return String(format: "%.2f ms", s * 1e3) }
        return String(format: "%.1f µs", s * 1e6)
    }
}

/// Times `body` with the continuous clock.
func time(_ body: () throws -> Void) rethrows -> Duration {
    let clock = ContinuousClock()
    let start = clock.now
    try body()
    return clock.now - start
}

/// When set (`--side ours`, `--side reference` or a side's name), only that side runs: for profiling.
nonisolated(unsafe) var onlySide: String?

/// Runs a case: warm-ups, then `iterations` rounds in which every side runs once, in an order
/// that rotates each round, so a noisy machine moves all sides alike. Returns the medians.
func run(_ benchmark: BenchmarkCase, log: (String) -> Void) throws -> CaseResult {
    try benchmark.setUp()
    defer { benchmark.tearDown() }
    var sides = [benchmark.ours ?? Side(name: "pending") { .zero }, benchmark.reference] + benchmark.others
    if let only = onlySide {
        // Profiling one side (e.g. under callgrind): the others are skipped and read as zero.
        let keep = only == "ours" ? 0 : (only == "reference" ? 1 : -1)
        for index in sides.indices where index != keep && sides[index].name != only {
            sides[index] = Side(name: sides[index].name) { .zero }
        }
    }
    var samples = Array(repeating: [Duration](), count: sides.count)
    let rounds = benchmark.warmups + benchmark.iterations
    for round in 0..<rounds {
        let order = (0..<sides.count).map { ($0 + round) % sides.count }
        for index in order {
            let duration = try sides[index].sample()
            if round >= benchmark.warmups { samples[index].append(duration) }
        }
        log("  \(benchmark.name): round \(round + 1)/\(rounds)")
    }
    sides = []
    let medians = samples.map(median)
    let referenceTime = benchmark.idealTime ?? medians[1]
    let referenceName = benchmark.idealTime == nil ? benchmark.reference.name : "ideal"
    var others = zip(([benchmark.reference] + benchmark.others).map(\.name), medians.dropFirst()).map { ($0, $1) }
    if benchmark.idealTime == nil { others.removeFirst() }
    return CaseResult(
        name: benchmark.name, ours: benchmark.ours == nil ? nil : medians[0], referenceName: referenceName,
        reference: referenceTime,
        others: others, target: benchmark.target)
}

/// The median of some durations (the mean of the middle two for an even count).
func median(_ values: [Duration]) -> Duration {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .zero }
    let mid = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

/// Prints results as a Markdown table.
func printTable(_ results: [CaseResult]) {
    print("| case | FetchKit | compared with | ratio | target | holds | also measured |")
    print("|---|---:|---|---:|---:|:---:|---|")
    for r in results {
        let target = r.target.map { String(format: "≤ %.2fx", $0) } ?? "—"
        let holds = r.holds.map { $0 ? "yes" : "**no**" } ?? "—"
        let others = r.others.map {
            "\($0.0): \($0.1.short) (\(String(format: "%.2fx", $0.1.seconds / r.reference.seconds)))"
        }
        .joined(separator: "; ")
        print(
            "| \(r.name) | \(r.ours?.short ?? "not built yet") | \(r.referenceName): \(r.reference.short) | "
                + (r.ratio.map { String(format: "%.2fx", $0) } ?? "—") + " | \(target) | \(holds) | "
                + "\(others.isEmpty ? "—" : others) |")
    }
}

/// Whether `--verbose` was given: sides then log diagnostics (such as connections used).
nonisolated(unsafe) var verboseDiagnostics = false

/// Writes a diagnostic line to standard error when `--verbose` was given.
func diagnose(_ line: String) {
    if verboseDiagnostics { FileHandle.standardError.write(Data(("  " + line + "\n").utf8)) }
}
