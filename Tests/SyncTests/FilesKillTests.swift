import FetchKitTesting
import Foundation
import Persistence
import Sync
import SyncHarness
import TestSupport
import Testing

/// Files through kills and at size, in a child process: the `SyncWorker`'s photos mode against
/// the photos backend.
@Suite(.serialized) struct FilesKillTests {
    let backend: PhotosBackend
    let folder: TemporaryDirectory
    let worker: PhotosWorker

    init() throws {
        backend = PhotosBackend()
        try backend.start()
        folder = try TemporaryDirectory(prefix: "FilesKillTests")
        worker = PhotosWorker(store: folder.file("photos.sqlite"), backend: backend.baseURL)
    }

    /// A file of `size` bytes in the test's folder.
    func file(_ name: String, size: Int) throws -> URL {
        let url = folder.file(name)
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        var generator = SeededGenerator(seed: UInt64(size))
        var chunk = [UInt8]((0..<min(size, 1 << 20)).map { _ in UInt8.random(in: 0...255, using: &generator) })
        var left = size
        var number: UInt8 = 0
        while left > 0 {
            // Each chunk differs from the others in its first byte.
            chunk[0] = number
            number &+= 1
            let count = min(left, chunk.count)
            try handle.write(contentsOf: chunk[0..<count])
            left -= count
        }
        return url
    }

    /// The store's photo, read after the worker ended.
    func photo(_ id: String) throws -> Photo? {
        let store = try ObjectStore(at: worker.store, entities: [Photo.self] + SyncSchema.entities)
        defer { store.close() }
        return try store.context.readAndWait { tx in try tx.fetch(Photo.self, id: id) }
    }

    @Test(arguments: ["after the server applied it", "before the server read it"])
    func aKillDuringTheUploadSendsTheFileOnce(moment: String) async throws {
        defer {
            backend.server.stop()
            folder.remove()
        }
        let image = try file("dock.bin", size: 100_000)
        backend.failWrites(
            moment.hasPrefix("after") ? .dropAfterApply(then: worker.kill) : .dropBeforeApply(then: worker.kill))
        #expect(try await worker.run("attach", "p00000000000010", image.path).killed)
        let synced = try await worker.run("sync")
        #expect(synced.status == 0, "\(synced)")
        let stored = try #require(backend.records["p00000000000010"])
        #expect(backend.uploads.values.reduce(0, +) == 1)
        // Applied before the kill: the next run reads the record and sends the file no more.
        if moment.hasPrefix("after") { #expect(backend.filesSent.values.reduce(0, +) == 1) }
        #expect(backend.files(of: "p00000000000010")[stored.image] == (try Data(contentsOf: image)))
        #expect(try photo("p00000000000010")?.image.name == stored.image)
    }

    @Test func aKillPartwayThroughTheBodySendsTheFileOnceLater() async throws {
        defer {
            backend.server.stop()
            folder.remove()
        }
        let image = try file("crane.bin", size: 1 << 20)
        backend.server.stallRequestBodies(afterBytes: 64 * 1024)
        async let attached = worker.run("attach", "p00000000000011", image.path)
        try await waitUntil("the upload to stall") { backend.server.stalledRequestBodies == 1 }
        worker.kill()
        #expect(try await attached.killed)
        backend.server.resumeRequestBodies()
        let synced = try await worker.run("sync")
        #expect(synced.status == 0, "\(synced)")
        #expect(backend.uploads.values.reduce(0, +) == 1)
        let stored = try #require(backend.records["p00000000000011"])
        #expect(backend.files(of: "p00000000000011")[stored.image] == (try Data(contentsOf: image)))
    }

    /// Issue 63's scale: an offline device's 10,000 queued writes, 1,000 of them with a file,
    /// drained by runs killed at 20 random moments, then one run to the end: every record is
    /// created once, every file stored once with its bytes, and the device ends with an empty
    /// outbox and each row holding the server's name of its file.
    @Test func tenThousandQueuedWritesWithAThousandFilesDrainThroughKillsAtRandomMoments() async throws {
        defer {
            backend.server.stop()
            folder.remove()
        }
        let (count, every) = (10_000, 10)
        let queued = try await worker.run("queue", String(count), String(every))
        #expect(queued.status == 0, "\(queued)")
        var generator = SeededGenerator(seed: 63)
        let clock = ContinuousClock()
        let started = clock.now
        var kills = 0
        for _ in 0..<20 {
            let delay = Duration.milliseconds(Int.random(in: 20...600, using: &generator))
            async let run = worker.run("sync")
            try await Task.sleep(for: delay)
            worker.kill()
            if try await run.killed { kills += 1 }
        }
        var last = try await worker.run("sync")
        for _ in 0..<3 where last.status != 0 { last = try await worker.run("sync") }
        #expect(last.status == 0, "\(last)")
        let elapsed = clock.now - started

        let records = backend.records
        #expect(records.count == count)
        #expect(backend.creates.count == count && backend.creates.values.allSatisfy { $0 == 1 })
        let uploads = backend.uploads
        #expect(uploads.count == count / every && uploads.values.allSatisfy { $0 == 1 })
        var wrongFiles = 0
        for number in stride(from: 0, to: count, by: every) {
            let id = PhotosQueue.id(number)
            guard let record = records[id], backend.files(of: id)[record.image] == PhotosQueue.image(of: id) else {
                wrongFiles += 1
                continue
            }
        }
        #expect(wrongFiles == 0)
        let store = try ObjectStore(at: worker.store, entities: [Photo.self] + SyncSchema.entities)
        defer { store.close() }
        let (pending, rows) = try store.context.readAndWait { tx in
            (try tx.count(Query<PendingWrite>()), try tx.fetch(Query<Photo>()))
        }
        #expect(pending == 0)
        #expect(rows.count == count)
        #expect(rows.allSatisfy { $0.image.name == records[$0.id]?.image && $0.updated == records[$0.id]?.updated })
        print(
            "drain: \(count) writes, \(count / every) files, \(kills) kills, \(backend.writeRequests) write requests, "
                + "\(backend.filesSent.values.reduce(0, +)) files sent, \(elapsed) until drained")
    }

    @Test func a200MBFileGoesUpAndComesDownInFlatMemory() async throws {
        defer {
            backend.server.stop()
            folder.remove()
        }
        backend.limitFiles(to: 300 << 20)
        // The same run with a small file: what the process costs without a large one.
        let small = try await worker.run("attach", "p00000000000012", try file("small.bin", size: 1000).path)
        let large = try file("large.bin", size: 200 << 20)
        let sent = try await worker.run("attach", "p00000000000013", large.path)
        #expect(sent.status == 0, "\(sent)")
        let stored = try #require(backend.records["p00000000000013"]).image
        #expect(backend.size(of: stored) == 200 << 20)
        // Another device downloads it.
        backend.serve(stored, from: large)
        let other = PhotosWorker(store: folder.file("other.sqlite"), backend: backend.baseURL)
        let got = try await other.run("download", "p00000000000013")
        #expect(got.status == 0, "\(got)")
        let downloaded = try #require(got.file.map { URL(fileURLWithPath: $0) })
        #expect(try RecordedRequest.fingerprint(ofFile: downloaded) == RecordedRequest.fingerprint(ofFile: large))
        #expect(backend.rangesServed == 25)
        let baseline = try #require(small.peak)
        let upload = try #require(sent.peak)
        let download = try #require(got.peak)
        print("peak kB: small \(baseline), 200 MB up \(upload), 200 MB down \(download)")
        #expect(upload - baseline < 32 << 10, "the upload's peak grew by \(upload - baseline) kB")
        #expect(download - baseline < 32 << 10, "the download's peak grew by \(download - baseline) kB")
    }
}
