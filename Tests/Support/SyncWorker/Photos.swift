import FetchKit
import Foundation
import Persistence
import Sync
import SyncHarness

// The worker's third mode, for the file tests: attaches a file to a photo and syncs, syncs, or
// downloads a photo's image, in a process the test can kill or measure.
//
//     SyncWorker photos <store file> <backend URL> attach <id> <file>
//     SyncWorker photos <store file> <backend URL> sync
//     SyncWorker photos <store file> <backend URL> download <id>
//     SyncWorker photos <store file> <backend URL> queue <count> <every>
//
// `queue` saves `count` photos offline (ids `q` and 14 digits), one in `every` with an image of
// its own (``PhotosQueue/image(of:)``), 500 a transaction, and sends nothing.
//
// Each prints `peak <kB>`, the process's peak resident memory (VmHWM) at its end, and a download
// prints `file <path>`.

/// Runs one photos command; the exit status.
func photos(_ arguments: [String]) async -> Int32 {
    guard arguments.count >= 3, let base = URL(string: arguments[1]) else { return 2 }
    let store: ObjectStore
    do {
        store = try ObjectStore(at: URL(fileURLWithPath: arguments[0]), entities: [Photo.self] + SyncSchema.entities)
    } catch {
        FileHandle.standardError.write(Data("SyncWorker: \(error)\n".utf8))
        return 1
    }
    defer { store.close() }
    do {
        // Multipart forms are written beside the store, not in the system's temporary folder: a
        // killed worker cannot remove its form, and the test's folder goes with the test.
        var configuration = NotesAPI.client().configuration
        configuration.temporaryDirectory = URL(fileURLWithPath: arguments[0]).deletingLastPathComponent()
        let client = FetchClient(configuration: configuration)
        let photos = try SyncedCollection(PhotosAPI.collection(at: base), store: store, client: client)
        switch arguments[2] {
        case "attach" where arguments.count == 5:
            let image = try photos.attach(URL(fileURLWithPath: arguments[4]))
            let photo = Photo(id: arguments[3], title: "attached", image: image)
            try await store.context.persist { tx in try photos.save(photo, in: tx) }
            try await photos.sync()
        case "sync":
            try await photos.sync()
        case "queue" where arguments.count == 5:
            try await PhotosQueue.queue(
                Int(arguments[3]) ?? 0, every: Int(arguments[4]) ?? 1, photos: photos, store: store,
                folder: URL(fileURLWithPath: arguments[0]).deletingLastPathComponent())
        case "download" where arguments.count == 4:
            try await photos.sync()
            guard let photo = try await store.context.read({ tx in try tx.fetch(Photo.self, id: arguments[3]) }) else {
                return 1
            }
            print("file \(try await photos.file(photo.image, of: photo).path)")
        default:
            return 2
        }
    } catch {
        FileHandle.standardError.write(Data("SyncWorker: \(error)\n".utf8))
        print("peak \(peakMemory())")
        return 3
    }
    print("peak \(peakMemory())")
    return 0
}

/// The process's peak resident memory in kB (`VmHWM`), or 0 where `/proc` has none.
func peakMemory() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
    return 0
}
