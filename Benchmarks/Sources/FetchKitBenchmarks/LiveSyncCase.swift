import FetchKit
import Foundation
import Persistence
import Sync

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// Live changes against a real PocketBase (`--live-sync <pocketbase binary>`): a note created by
// another client (a plain HTTP POST, device B) reaches device A's store observer. Device A follows
// the server with `start(following: .pocketBase(…))`; device H, the comparison, reads the same
// realtime stream with a hand-written loop and starts `sync()` at each event. Both devices take
// every change, in the same run; each change waits until both observers saw it, so the changes
// never overlap. The time runs from just before B's POST is sent (so it includes B's own request)
// to the observer's delivery.

/// A note of the `notes` collection (`Interop/PocketBase/pb_migrations`).
nonisolated struct LiveNote: StoredEntity {
    var id: String
    var title: String
    var updated: String?
}

/// Runs the live-sync case and prints its rows in the main table's shape.
func runLiveSync(pocketBase binary: String, changes: Int = 200, warmups: Int = 20) async throws {
    let scratch = try Scratch()
    let server = try await LivePocketBase(binary: binary, folder: scratch.url)
    defer { server.stop() }

    let followed = try LiveDevice(file: scratch.url.appendingPathComponent("followed.sqlite"), server: server.url)
    let byHand = try LiveDevice(file: scratch.url.appendingPathComponent("by-hand.sqlite"), server: server.url)
    defer {
        followed.store.close()
        byHand.store.close()
    }
    await followed.notes.start(following: .pocketBase(at: server.url, collections: ["notes"]))
    let url = server.url
    let handLoop = Task { await byHand.followByHand(server: url) }
    defer { handLoop.cancel() }
    // Both are connected and subscribed once a note created now reaches both.
    var followedTimes: [Duration] = []
    var handTimes: [Duration] = []
    let writer = FetchClient()
    for index in 0..<(warmups + changes) {
        let id = String(format: "l%014d", index)
        let start = ContinuousClock.now
        _ = try await writer.fetch(
            LiveCreate(baseURL: server.url, body: .json(["id": id, "title": "change \(index)"])), extracting: .data)
        let (a, h) = try await (followed.arrival(of: index + 1), byHand.arrival(of: index + 1))
        guard index >= warmups else { continue }
        followedTimes.append(a - start)
        handTimes.append(h - start)
    }
    await followed.notes.stop()

    let p50 = (percentile(followedTimes, 0.50), percentile(handTimes, 0.50))
    let p95 = (percentile(followedTimes, 0.95), percentile(handTimes, 0.95))
    let holds = p95.0 <= .milliseconds(250) && p95.0 - p95.1 <= .milliseconds(50)
    let ratio = String(format: "%.2fx", p95.0.seconds / p95.1.seconds)
    let difference = String(format: "%+.1f ms", (p95.0 - p95.1).seconds * 1e3)
    let verdict = holds ? "yes" : "**no**"
    var row = "| Sync live: a note created elsewhere reaching the observer, p95 of \(changes) (real PocketBase) | "
    row += "\(p95.0.short) | a pull started by hand at the event: \(p95.1.short) | \(ratio) | ≤ 250 ms, ≤ +50 ms | "
    row += "\(verdict) | p50 \(p50.0.short) against \(p50.1.short); p95 \(difference) |"
    print(row)
}

/// The value at fraction `q` of the sorted durations (nearest rank).
func percentile(_ values: [Duration], _ q: Double) -> Duration {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .zero }
    let rank = Int((q * Double(sorted.count)).rounded(.up)) - 1
    return sorted[min(max(rank, 0), sorted.count - 1)]
}

/// One device: a store, its notes collection, and when its observer saw each count of notes.
final class LiveDevice: Sendable {
    let store: ObjectStore
    let notes: SyncedCollection<LiveNote>
    private let seen = Locked<[Int: ContinuousClock.Instant]>([:])
    private let token = Locked<ObservationToken?>(nil)

    init(file: URL, server: URL) throws {
        store = try ObjectStore(at: file, entities: [LiveNote.self] + SyncSchema.entities)
        notes = try SyncedCollection(
            .pocketBase("notes", at: server, version: \LiveNote.updated), store: store, client: FetchClient())
        let observation = store.observe(.value(tracking: LiveNote.self) { tx in try tx.count(Query<LiveNote>()) }) {
            [seen] count in
            let now = ContinuousClock.now
            seen.withLock { if $0[count] == nil { $0[count] = now } }
        }
        token.withLock { $0 = observation }
    }

    /// When the observer first saw `count` notes (waits for it, for at most a minute).
    func arrival(of count: Int) async throws -> ContinuousClock.Instant {
        let deadline = ContinuousClock.now.advanced(by: .seconds(60))
        while ContinuousClock.now < deadline {
            if let instant = seen.withLock({ $0[count] }) { return instant }
            try await Task.sleep(for: .microseconds(200))
        }
        throw LiveSyncFailure(description: "note \(count) never reached \(store)")
    }

    /// The comparison: PocketBase's realtime stream read by hand, `sync()` started at each event
    /// (and once subscribed).
    func followByHand(server: URL) async {
        let client = FetchClient()
        do {
            for try await event in EventSource(LiveRealtime(baseURL: server), client: client) {
                if event.event == "PB_CONNECT" {
                    let clientID = (try? JSONDecoder().decode([String: String].self, from: Data(event.data.utf8)))?[
                        "clientId"]
                    var subscribe = LiveRealtime(baseURL: server)
                    subscribe.method = .post
                    subscribe.body = .json(LiveSubscription(clientId: clientID ?? "", subscriptions: ["notes/*"]))
                    _ = try await client.fetch(subscribe, extracting: .data)
                }
                _ = try? await notes.sync()
            }
        } catch {
            if !Task.isCancelled {
                FileHandle.standardError.write(Data("the hand-written follower stopped: \(error)\n".utf8))
            }
        }
    }
}

private struct LiveSubscription: Encodable {
    var clientId: String
    var subscriptions: [String]
}

/// `/api/realtime`.
private struct LiveRealtime: Endpoint {
    var baseURL: URL
    var path: String { "/api/realtime" }
    var method: HTTPMethod = .get
    var body: RequestBody?
    var timeout: Duration? { .seconds(330) }
    var cachePolicy: CachePolicy { .bypass }
}

/// A create in the notes collection, as another client sends it.
private struct LiveCreate: Endpoint {
    var baseURL: URL
    var path: String { "/api/collections/notes/records" }
    var method: HTTPMethod { .post }
    var body: RequestBody?
}

struct LiveSyncFailure: Error, CustomStringConvertible {
    var description: String
}

/// A PocketBase server on loopback with the repository's migrations, on a fresh data folder.
final class LivePocketBase {
    let url: URL
    private let process: Process

    init(binary: String, folder: URL) async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let migrations = root.appendingPathComponent("Interop/PocketBase/pb_migrations")
        let port = 20_000 + Int.random(in: 0..<12_000)
        url = URL(string: "http://127.0.0.1:\(port)") ?? folder
        process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = [
            "serve", "--http", "127.0.0.1:\(port)", "--dir", folder.appendingPathComponent("pb_data").path,
            "--migrationsDir", migrations.path, "--automigrate=false",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = ContinuousClock.now.advanced(by: .seconds(30))
        while ContinuousClock.now < deadline {
            if let (_, response) = try? await URLSession.shared.data(from: url.appendingPathComponent("api/health")),
                (response as? HTTPURLResponse)?.statusCode == 200
            {
                return
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        process.terminate()
        throw LiveSyncFailure(description: "PocketBase did not answer on port \(port)")
    }

    func stop() {
        process.terminate()
        process.waitUntilExit()
    }
}
