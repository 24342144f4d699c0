import ExampleSupport
import Foundation
import Persistence
import TestSupport

/// A temporary folder for one flickr test: its store, its data home, and runs of the program.
struct FlickrSandbox {
    let folder: TemporaryDirectory

    init() throws {
        folder = try TemporaryDirectory(prefix: "FlickrTests")
    }

    var storePath: String { folder.file("flickr.sqlite").path }

    /// The environment of a run: a private data home, no live key, no offline key override,
    /// and the offline stream pinned at `tick` (or following the clock when nil).
    func environment(tick: Int?, extra: [String: String?] = [:]) -> [String: String?] {
        var environment: [String: String?] = [
            "XDG_DATA_HOME": folder.file("data").path, "FLICKR_API_KEY": nil, "FLICKR_OFFLINE_KEY": nil,
            "FLICKR_OFFLINE_LATENCY": nil, "FLICKR_OFFLINE_TICK": tick.map(String.init),
        ]
        for (key, value) in extra { environment[key] = value }
        return environment
    }

    /// Runs `flickr` with `--store` pointing at this sandbox's store.
    func run(_ arguments: [String], tick: Int? = 5, extra: [String: String?] = [:]) async throws -> ProgramRun {
        try await ProgramRun.run(
            "flickr", arguments + ["--store", storePath], environment: environment(tick: tick, extra: extra),
            timeout: .seconds(60))
    }

    /// The photos in the store, opened with Persistence.
    func storedPhotos() throws -> [Photo] {
        let store = try ObjectStore(at: folder.file("flickr.sqlite"), entities: [Photo.self])
        defer { store.close() }
        return try store.context.readAndWait { tx in try tx.fetch(Photo.self) }
    }

    /// Writes photos into the store directly, as another program sharing it would.
    func insert(_ photos: [Photo]) throws {
        let store = try ObjectStore(at: folder.file("flickr.sqlite"), entities: [Photo.self])
        defer { store.close() }
        try store.context.persistAndWait { tx in try tx.insert(contentsOf: photos) }
    }
}

/// What the offline server holds, read independently of the program: the ids of the photos
/// with a usable location in the first page of 250 at a tick, and every photo's coordinates.
enum FlickrOracle {
    static func photos(tick: Int) throws -> [[String: Any]] {
        let body = PhotoStream().recentResponse(tick: tick, page: 1, perPage: 250)
        let object = try JSONSerialization.jsonObject(with: body) as? [String: Any]
        return (object?["photos"] as? [String: Any])?["photo"] as? [[String: Any]] ?? []
    }

    static func coordinate(_ value: Any?) -> Double? {
        switch value {
        case let text as String: Double(text)
        case let number as NSNumber: number.doubleValue
        default: nil
        }
    }

    /// The ids of photos whose coordinates are present and not Flickr's 0/0.
    static func usableIDs(tick: Int) throws -> Set<String> {
        Set(
            try photos(tick: tick).compactMap { photo -> String? in
                guard let latitude = coordinate(photo["latitude"]), let longitude = coordinate(photo["longitude"]),
                    latitude != 0 || longitude != 0
                else { return nil }
                return photo["id"] as? String
            })
    }
}

/// A program run that a test interrupts: started, watched line by line, sent a signal.
final class InterruptibleRun: @unchecked Sendable {
    // `@unchecked Sendable`: `output` and `triggers` are guarded by `lock`; the rest is immutable after init.
    private let process = Process()
    private let lock = NSLock()
    private var output = ""
    private let stdout = Pipe()
    private let stderr = Pipe()
    private let finished = DispatchSemaphore(value: 0)
    private var triggers: [Trigger] = []

    /// An action to take as soon as standard output contains some text.
    private struct Trigger {
        let text: String
        let action: @Sendable () -> Void
    }

    init(_ name: String, _ arguments: [String], environment: [String: String?]) throws {
        process.executableURL = try BuiltProducts.executable(named: name)
        process.arguments = arguments
        var merged = ProcessInfo.processInfo.environment
        for (key, value) in environment { merged[key] = value }
        process.environment = merged
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice
        process.terminationHandler = { [finished] _ in finished.signal() }
        stdout.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self, !data.isEmpty else { return }
            let due = self.lock.withLock { () -> [@Sendable () -> Void] in
                self.output += String(decoding: data, as: UTF8.self)
                let (due, waiting) = self.triggers.reduce(into: ([Trigger](), [Trigger]())) { parts, trigger in
                    if self.output.contains(trigger.text) { parts.0.append(trigger) } else { parts.1.append(trigger) }
                }
                self.triggers = waiting
                return due.map(\.action)
            }
            for action in due { action() }
        }
        try process.run()
    }

    /// Everything printed to standard output so far.
    var printed: String {
        lock.withLock { output }
    }

    /// Waits until standard output contains `text`, for at most `timeout`.
    func waitForOutput(containing text: String, timeout: Duration) async -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while !printed.contains(text) {
            if clock.now >= deadline || !process.isRunning { return printed.contains(text) }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return true
    }

    /// Sends SIGINT, as Ctrl-C does.
    func interrupt() {
        kill(process.processIdentifier, SIGINT)
    }

    /// Runs `action` on the thread that reads standard output as soon as it contains `text`.
    ///
    /// The action does not wait for the test's task to be scheduled: on a loaded machine the
    /// cooperative pool can be busy for seconds, longer than the program's own timeouts.
    func when(output text: String, _ action: @escaping @Sendable () -> Void) {
        let now = lock.withLock { () -> Bool in
            if output.contains(text) { return true }
            triggers.append(Trigger(text: text, action: action))
            return false
        }
        if now { action() }
    }

    /// Waits for the program to end (killing it after `timeout`) and returns its status and output.
    func finish(timeout: Duration) async -> (status: Int32?, output: String, errorOutput: String) {
        let seconds = Double(timeout.components.seconds)
        let waited = await Blocking.run { [finished] in finished.wait(timeout: .now() + seconds) }
        if waited == .timedOut {
            process.terminate()
            return (nil, printed, "")
        }
        stdout.fileHandleForReading.readabilityHandler = nil
        let rest = stdout.fileHandleForReading.readDataToEndOfFile()
        lock.withLock { output += String(decoding: rest, as: UTF8.self) }
        let errors = stderr.fileHandleForReading.readDataToEndOfFile()
        return (process.terminationStatus, printed, String(decoding: errors, as: UTF8.self))
    }
}
