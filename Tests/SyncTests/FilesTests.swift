import FetchKit
import FetchKitTesting
import Foundation
import Persistence
import Sync
import SyncHarness
import TestSupport
import Testing

/// A device of the photos backend: a store file in a folder of its own, and its photos collection.
final class PhotoDevice: Sendable {
    let folder: TemporaryDirectory
    let store: ObjectStore
    let photos: SyncedCollection<Photo>

    init(_ backend: PhotosBackend, describing: (inout RemoteCollection<Photo>) -> Void = { _ in }) throws {
        folder = try TemporaryDirectory(prefix: "FilesTests")
        store = try ObjectStore(at: folder.file("photos.sqlite"), entities: [Photo.self] + SyncSchema.entities)
        var remote = PhotosAPI.collection(at: backend.baseURL)
        describing(&remote)
        photos = try SyncedCollection(remote, store: store, client: NotesAPI.client())
    }

    deinit {
        store.close()
        folder.remove()
    }

    /// A file of these bytes in the device's folder (outside the store's files).
    func file(_ name: String, _ text: String) throws -> URL {
        let url = folder.file(name)
        try Data(text.utf8).write(to: url)
        return url
    }

    func save(_ photo: Photo) async throws {
        try await store.context.persist { tx in try self.photos.save(photo, in: tx) }
    }

    func photo(_ id: String) async throws -> Photo? {
        try await store.context.read { tx in try tx.fetch(Photo.self, id: id) }
    }

    /// The files kept beside the store, by path below its files folder.
    func keptFiles() -> [String] {
        let root = folder.file("photos.sqlite.files")
        let all = FileManager.default.enumerator(atPath: root.path)?.allObjects as? [String] ?? []
        return all.filter { path in
            var folder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path, isDirectory: &folder)
            return !folder.boolValue
        }.sorted()
    }
}

@Suite struct FilesTests {
    let backend: PhotosBackend

    init() throws {
        backend = PhotosBackend()
        try backend.start()
    }

    /// The file requests the backend received.
    var downloads: Int { backend.server.receivedRequests.filter { $0.path.hasPrefix("/api/files/") }.count }

    @Test func anAttachedFileGoesWithItsRecordAndIsKeptUnderTheServersName() async throws {
        defer { backend.server.stop() }
        let device = try PhotoDevice(backend)
        let image = try device.photos.attach(try device.file("Sunset over Lisbon.JPG", "sunset bytes"))
        #expect(image.name.hasPrefix("sunset_over_lisbon_") && image.name.hasSuffix(".jpg"))
        try await device.save(Photo(id: "p00000000000001", title: "Sunset", image: image))
        let report = try await device.photos.sync()
        #expect(report.writesSent == 1)

        let stored = try #require(backend.records["p00000000000001"])
        #expect(stored.title == "Sunset")
        #expect(stored.image != image.name && stored.image.hasPrefix(image.name.dropLast(4) + "_"))
        #expect(backend.files(of: "p00000000000001")[stored.image] == Data("sunset bytes".utf8))
        #expect(backend.uploads == [image.name: 1])
        // The row holds the server's name; the copy is kept under it, with nothing left staged.
        let row = try #require(try await device.photo("p00000000000001"))
        #expect(row.image.name == stored.image)
        let local = try await device.photos.file(row.image, of: row)
        #expect(try Data(contentsOf: local) == Data("sunset bytes".utf8))
        #expect(downloads == 0)
        #expect(device.keptFiles() == ["records/photos/p00000000000001/\(stored.image)"])
    }

    @Test func anotherDeviceDownloadsAFileWhenAskedAndOnce() async throws {
        defer { backend.server.stop() }
        backend.put("p00000000000002", title: "Harbour", image: ("harbour.png", Data("harbour bytes".utf8)))
        let device = try PhotoDevice(backend)
        try await device.photos.sync()
        #expect(downloads == 0)
        let row = try #require(try await device.photo("p00000000000002"))
        let first = try await device.photos.file(row.image, of: row)
        #expect(try Data(contentsOf: first) == Data("harbour bytes".utf8))
        let second = try await device.photos.file(row.image, of: row)
        #expect(second == first)
        #expect(downloads == 1)
    }

    @Test func aReplacedAndARemovedFileFollowTheRecordOnBothDevices() async throws {
        defer { backend.server.stop() }
        let phone = try PhotoDevice(backend)
        let laptop = try PhotoDevice(backend)
        try await phone.save(
            Photo(
                id: "p00000000000003", title: "Tram", image: try phone.photos.attach(try phone.file("tram.txt", "one")))
        )
        try await phone.photos.sync()
        try await laptop.photos.sync()
        var seen = try #require(try await laptop.photo("p00000000000003"))
        _ = try await laptop.photos.file(seen.image, of: seen)
        let first = seen.image.name

        // Replaced on the phone: the server keeps the new file only, and the laptop's old copy goes.
        var photo = try #require(try await phone.photo("p00000000000003"))
        photo.image = try phone.photos.attach(try phone.file("tram.txt", "two"))
        try await phone.save(photo)
        try await phone.photos.sync()
        let replaced = try #require(backend.records["p00000000000003"]).image
        #expect(replaced != first)
        #expect(Array(backend.files(of: "p00000000000003").keys) == [replaced])
        try await laptop.photos.sync()
        seen = try #require(try await laptop.photo("p00000000000003"))
        #expect(seen.image.name == replaced)
        #expect(laptop.keptFiles().isEmpty)
        #expect(try Data(contentsOf: try await laptop.photos.file(seen.image, of: seen)) == Data("two".utf8))

        // Removed on the laptop: the server deletes the file, and the phone's copy goes.
        seen.image = .none
        seen.title = "Tram, no picture"
        try await laptop.save(seen)
        try await laptop.photos.sync()
        #expect(backend.records["p00000000000003"]?.image == "")
        #expect(backend.files(of: "p00000000000003").isEmpty)
        #expect(laptop.keptFiles().isEmpty)
        #expect(!phone.keptFiles().isEmpty)
        try await phone.photos.sync()
        #expect(try await phone.photo("p00000000000003")?.image == SyncedFile.none)
        #expect(phone.keptFiles().isEmpty)
    }

    @Test func aFileFieldOfSeveralFilesKeepsTheNamesItListsAndAddsTheNewOnes() async throws {
        defer { backend.server.stop() }
        let device = try PhotoDevice(backend)
        let first = try device.photos.attach(try device.file("page one.txt", "1"))
        let second = try device.photos.attach(try device.file("page two.txt", "2"))
        try await device.save(Photo(id: "p00000000000004", title: "Scan", pages: [first, second]))
        try await device.photos.sync()
        var photo = try #require(try await device.photo("p00000000000004"))
        #expect(photo.pages.count == 2)
        #expect(Set(photo.pages.map(\.name)) == Set(backend.files(of: "p00000000000004").keys))

        // One kept, one removed, one added, in one write.
        let kept = photo.pages[0]
        photo.pages = [kept, try device.photos.attach(try device.file("page three.txt", "3"))]
        try await device.save(photo)
        try await device.photos.sync()
        photo = try #require(try await device.photo("p00000000000004"))
        #expect(photo.pages.count == 2 && photo.pages[0] == kept)
        let stored = backend.files(of: "p00000000000004")
        #expect(Set(stored.keys) == Set(photo.pages.map(\.name)))
        #expect(stored[photo.pages[1].name] == Data("3".utf8))
        #expect(backend.uploads.values.allSatisfy { $0 == 1 } && backend.uploads.count == 3)
    }

    @Test func aFileTheServerRefusesIsARejectedWriteAndTheRecordsOtherChangesStay() async throws {
        defer { backend.server.stop() }
        backend.put("p00000000000005", title: "Bridge")
        backend.limitFiles(to: 8)
        let device = try PhotoDevice(backend)
        try await device.photos.sync()
        var photo = try #require(try await device.photo("p00000000000005"))
        photo.title = "Bridge at night"
        photo.image = try device.photos.attach(try device.file("bridge.txt", "far more than eight bytes"))
        try await device.save(photo)
        let report = try await device.photos.sync()
        #expect(report.writesRejected == 1)
        let write = try #require(
            try await device.store.context.read { tx in try tx.fetch(device.photos.pendingWrites) }.first)
        #expect(write.state == .rejected)
        #expect(write.reason?.contains("validation_file_size_limit") == true)
        #expect(backend.records["p00000000000005"]?.title == "Bridge")
        // The title stays on the device with the write; without the file, it goes.
        #expect(try await device.photo("p00000000000005")?.title == "Bridge at night")
        photo.image = .none
        try await device.save(photo)
        try await device.photos.sync()
        #expect(backend.records["p00000000000005"]?.title == "Bridge at night")
    }

    @Test(arguments: [false, true])
    func aLostAnswerNeverUploadsAFileTwice(updating: Bool) async throws {
        defer { backend.server.stop() }
        let device = try PhotoDevice(backend)
        var photo = Photo(id: "p00000000000006", title: "Quay")
        if updating {
            backend.put(photo.id, title: "Quay")
            try await device.photos.sync()
            photo = try #require(try await device.photo(photo.id))
        }
        photo.title = "Quay at dawn"
        photo.image = try device.photos.attach(try device.file("quay.txt", "quay bytes"))
        try await device.save(photo)
        backend.failWrites(.dropAfterApply(then: nil))
        await #expect(throws: SyncError.self) { try await device.photos.sync() }
        // The record is read first: the server holds the upload, so the write is done.
        let report = try await device.photos.sync()
        #expect(report.writesSent == 1 && report.conflicts == 0)
        #expect(backend.uploads == [photo.image.name: 1])
        #expect(backend.filesSent == [photo.image.name: 1])
        let stored = try #require(backend.records[photo.id])
        #expect(stored.title == "Quay at dawn")
        #expect(try await device.photo(photo.id)?.image.name == stored.image)
        #expect(try await device.store.context.read { tx in try tx.count(device.photos.pendingWrites) } == 0)
    }

    @Test func namesTheServerSendsThatAreNotOneFileAreNotFetched() async throws {
        defer { backend.server.stop() }
        let device = try PhotoDevice(backend)
        for (number, name) in ["../../secrets", "a/b.png", ".."].enumerated() {
            let id = "p0000000000007\(number)"
            backend.put(id, title: "Odd", image: ("odd.png", Data("odd".utf8)), storedAs: name)
            try await device.photos.sync()
            let photo = try #require(try await device.photo(id))
            #expect(photo.image.name == name)
            let error = await #expect(throws: SyncError.self) { try await device.photos.file(photo.image, of: photo) }
            #expect(error?.code == .fileUnavailable)
        }
        let empty = Photo(id: "p00000000000079", title: "None")
        let error = await #expect(throws: SyncError.self) { try await device.photos.file(empty.image, of: empty) }
        #expect(error?.code == .fileUnavailable)
        #expect(downloads == 0)
        #expect(device.keptFiles().isEmpty)
    }

    @Test func aServerThatKeepsTheNamesItIsSentIsDescribedByItsNamingRule() async throws {
        defer { backend.server.stop() }
        backend.keepNames()
        let described: (inout RemoteCollection<Photo>) -> Void = { remote in
            remote.files.isUpload = { stored, sent in stored == sent }
        }
        let phone = try PhotoDevice(backend, describing: described)
        var photo = Photo(id: "p00000000000020", title: "Lighthouse")
        photo.image = try phone.photos.attach(try phone.file("lighthouse.txt", "light"))
        try await phone.save(photo)
        try await phone.photos.sync()
        #expect(backend.records[photo.id]?.image == photo.image.name)
        // A later change of the record does not send the file again, nor miss its copy.
        photo = try #require(try await phone.photo(photo.id))
        photo.title = "Lighthouse at dusk"
        try await phone.save(photo)
        #expect(try await phone.photos.sync().writesRejected == 0)
        #expect(backend.records[photo.id]?.title == "Lighthouse at dusk")
        #expect(backend.filesSent == [photo.image.name: 1])
        let laptop = try PhotoDevice(backend, describing: described)
        try await laptop.photos.sync()
        let seen = try #require(try await laptop.photo(photo.id))
        #expect(try Data(contentsOf: try await laptop.photos.file(seen.image, of: seen)) == Data("light".utf8))
    }

    @Test func anEmptyFileComesDownEmpty() async throws {
        defer { backend.server.stop() }
        backend.put("p00000000000008", title: "Blank", image: ("blank.txt", Data()))
        let device = try PhotoDevice(backend)
        try await device.photos.sync()
        let photo = try #require(try await device.photo("p00000000000008"))
        #expect(try Data(contentsOf: try await device.photos.file(photo.image, of: photo)).isEmpty)
    }

    @Test func anEditSavedWhileTheUploadsAnswerWasLostLeavesNoStagedCopy() async throws {
        defer { backend.server.stop() }
        let device = try PhotoDevice(backend)
        var photo = Photo(id: "p00000000000009", title: "Pier")
        photo.image = try device.photos.attach(try device.file("pier.txt", "pier bytes"))
        try await device.save(photo)
        backend.failWrites(.dropAfterApply(then: nil))
        await #expect(throws: SyncError.self) { try await device.photos.sync() }
        // Another change while the first write's outcome is unknown: queued behind it.
        photo.title = "Pier at noon"
        try await device.save(photo)
        try await device.photos.sync()
        let stored = try #require(backend.records["p00000000000009"])
        #expect(stored.title == "Pier at noon")
        #expect(backend.uploads == [photo.image.name: 1] && backend.filesSent == [photo.image.name: 1])
        #expect(try await device.photo("p00000000000009")?.image.name == stored.image)
        #expect(device.keptFiles() == ["records/photos/p00000000000009/\(stored.image)"])
    }

    @Test func aStoreInMemoryOrACollectionWithoutFileFieldsRefusesAnAttachment() throws {
        defer { backend.server.stop() }
        let memory = try ObjectStore.inMemory(entities: [Photo.self] + SyncSchema.entities)
        defer { memory.close() }
        let inMemory = try SyncedCollection(
            PhotosAPI.collection(at: backend.baseURL), store: memory, client: NotesAPI.client())
        let file = try TemporaryDirectory(prefix: "FilesTests")
        defer { file.remove() }
        try Data("x".utf8).write(to: file.file("x.txt"))
        #expect(throws: SyncError.self) { try inMemory.attach(file.file("x.txt")) }
        let device = try PhotoDevice(backend) { $0.files = .none }
        let error = #expect(throws: SyncError.self) { try device.photos.attach(file.file("x.txt")) }
        #expect(error?.code == .misuse)
        let missing = try PhotoDevice(backend)
        let unreadable = #expect(throws: SyncError.self) { try missing.photos.attach(file.file("absent.txt")) }
        #expect(unreadable?.code == .fileUnavailable)
    }
}
