import FetchKit
import Foundation
import Persistence
import Sync
import TestSupport
import Testing

import enum SyncHarness.PhotosQueue

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Issue 63's drain at scale against a real PocketBase: an offline device's queued photos, one in
// ten with an image, sent by `SyncWorker photos` runs killed with SIGKILL at random moments.

extension PocketBaseInteropTests {
    /// 2,000 queued creates, 200 of them with an image, drained by runs killed at 10 random moments
    /// and then one run to the end: every record is on PocketBase once and never changed after its
    /// create (`updated` is its `created`: no file was sent a second time as an update), every
    /// image is the one file in its record's storage with the bytes attached, and the device ends
    /// with an empty outbox and each row holding PocketBase's name of its file.
    @Test func queuedWritesWithFilesDrainIntoPocketBaseThroughKillsAtRandomMoments() async throws {
        let server = try PocketBaseServer()
        defer { server.kill(); server.folder.remove() }
        try await server.start()
        let folder = try TemporaryDirectory(prefix: "DrainKills")
        defer { folder.remove() }
        let store = folder.file("device.sqlite")
        let worker = try BuiltProducts.executable(named: "SyncWorker")
        let (count, every) = (2_000, 10)
        func photos(_ command: [String]) -> [String] { ["photos", store.path, server.url.absoluteString] + command }

        let queued = try await ProgramRun.run(executable: worker, photos(["queue", String(count), String(every)]))
        #expect(queued.status == 0, "\(queued)")
        var generator = SeededGenerator(seed: 630)
        var kills = 0
        for _ in 0..<10 {
            let process = try ChildProcess(executable: worker, photos(["sync"]))
            try await Task.sleep(for: .milliseconds(Int.random(in: 50...800, using: &generator)))
            process.send(SIGKILL)
            let ending = await process.exit(timeout: Patience.hang)
            if ending == .init(status: SIGKILL, signalled: true) { kills += 1 }
        }
        var last = try await ProgramRun.run(executable: worker, photos(["sync"]))
        for _ in 0..<3 where last.status != 0 { last = try await ProgramRun.run(executable: worker, photos(["sync"])) }
        #expect(last.status == 0, "\(last)")

        var records: [[String: Any]] = []
        for page in 1...3 { records += try await server.records(of: "photos", page: page) }
        #expect(records.count == count)
        var served: [String: (image: String, updated: String)] = [:]
        var changed: [String] = []
        for record in records {
            guard let id = record["id"] as? String else { continue }
            served[id] = (record["image"] as? String ?? "", record["updated"] as? String ?? "")
            // PocketBase stamps `created` and `updated` a millisecond apart at most; a file sent
            // again as an update would come from a later run, at least a process start later.
            let created = Self.pocketBaseDate(record["created"]), updated = Self.pocketBaseDate(record["updated"])
            if let created, let updated, updated.timeIntervalSince(created) < 0.05 { continue }
            changed.append(id)
        }
        #expect(changed.isEmpty, "records changed after their create: \(changed.prefix(5))")
        var wrongFiles: [String] = []
        for number in 0..<count {
            let id = PhotosQueue.id(number)
            let stored = try Self.storedFiles(id, on: server)
            let expected = number % every == 0 ? [served[id]?.image ?? "": PhotosQueue.image(of: id)] : [:]
            if stored != expected { wrongFiles.append(id) }
        }
        #expect(wrongFiles.isEmpty, "records whose stored files differ: \(wrongFiles.prefix(5))")

        let device = try ObjectStore(at: store, entities: [Snapshot.self] + SyncSchema.entities)
        defer { device.close() }
        let (pending, rows) = try device.context.readAndWait { tx in
            (try tx.count(Query<PendingWrite>()), try tx.fetch(Query<Snapshot>()))
        }
        #expect(pending == 0)
        #expect(rows.count == count)
        #expect(rows.allSatisfy { $0.image.name == served[$0.id]?.image && $0.updated == served[$0.id]?.updated })
        print("PocketBase drain: \(count) writes, \(count / every) files, \(kills) kills")
    }

    /// A PocketBase date (`2026-11-28 11:43:00.890Z`).
    static func pocketBaseDate(_ value: Any?) -> Date? {
        guard let text = value as? String else { return nil }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss.SSS'Z'"
        return formatter.date(from: text)
    }
}
