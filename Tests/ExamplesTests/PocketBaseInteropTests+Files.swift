import FetchKit
import Foundation
import Persistence
import Sync
import TestSupport
import Testing

// Files beside records against a real PocketBase: the `photos` collection (an `image` of at most
// 1 MB, PNG or JPEG; `pages`, up to 5 files), described by the preset with its file fields.

nonisolated struct Snapshot: StoredEntity {
    var id: String
    var title: String
    var image = SyncedFile.none
    var pages: [SyncedFile] = []
    var updated: String?
    static let entityName = "Photo"
}

extension PocketBaseInteropTests {
    /// One device of the photos collection: its store file, synced through `server`.
    struct PhotosDevice {
        let store: ObjectStore
        let photos: SyncedCollection<Snapshot>
        let folder: URL

        init(_ name: String, in folder: TemporaryDirectory, server: URL) throws {
            self.folder = folder.url
            store = try ObjectStore(at: folder.file(name + ".sqlite"), entities: [Snapshot.self] + SyncSchema.entities)
            photos = try SyncedCollection(
                .pocketBase("photos", at: server, version: \Snapshot.updated, files: ["image", "pages"]), store: store,
                client: FetchClient())
        }

        func attach(_ name: String, _ bytes: Data) throws -> SyncedFile {
            let file = folder.appendingPathComponent(name)
            try bytes.write(to: file)
            return try photos.attach(file)
        }

        func save(_ photo: Snapshot) async throws {
            try await store.context.persist { tx in try photos.save(photo, in: tx) }
        }

        func photo(_ id: String) async throws -> Snapshot? {
            try await store.context.read { tx in try tx.fetch(Snapshot.self, id: id) }
        }
    }

    /// A PNG's signature (PocketBase tells a file's type by its first bytes) and `size` more bytes.
    static func png(_ size: Int, seed: UInt8) -> Data {
        Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            + Data((0..<size).map { UInt8(truncatingIfNeeded: $0) &+ seed })
    }

    /// The files PocketBase stores for a record of `photos` (`pb_data/storage/<collection id>/<id>`;
    /// each file has a `.attrs` file of metadata beside it).
    static func storedFiles(_ id: String, on server: PocketBaseServer) throws -> [String: Data] {
        let storage = server.folder.file("data/storage")
        var files: [String: Data] = [:]
        for collection in try FileManager.default.contentsOfDirectory(atPath: storage.path) {
            let record = storage.appendingPathComponent(collection).appendingPathComponent(id)
            for name in (try? FileManager.default.contentsOfDirectory(atPath: record.path)) ?? []
            where !name.hasSuffix(".attrs") {
                var folder: ObjCBool = false
                let path = record.appendingPathComponent(name)
                if FileManager.default.fileExists(atPath: path.path, isDirectory: &folder), !folder.boolValue {
                    files[name] = try Data(contentsOf: path)
                }
            }
        }
        return files
    }

    /// A photo's image and pages go up with its record, exactly the named files in PocketBase's
    /// storage; another device downloads one when asked (in ranges), and sees it replaced and
    /// removed; a file PocketBase refuses (too large, not an image) is a rejected write with its
    /// reason, the record's other change kept on the device.
    @Test func filesGoUpWithTheirRecordsAndComeDownWhenAsked() async throws {
        let server = try PocketBaseServer()
        defer { server.kill(); server.folder.remove() }
        try await server.start()
        let folder = try TemporaryDirectory(prefix: "Files")
        defer { folder.remove() }
        let phone = try PhotosDevice("phone", in: folder, server: server.url)
        defer { phone.store.close() }
        let laptop = try PhotosDevice("laptop", in: folder, server: server.url)
        defer { laptop.store.close() }

        let picture = Self.png(300_000, seed: 1)
        let notes = Data("page one".utf8)
        try await phone.save(
            Snapshot(
                id: "photo0000000001", title: "Harbour", image: try phone.attach("Harbour at dusk.png", picture),
                pages: [try phone.attach("notes.txt", notes)]))
        #expect(try await phone.photos.sync().writesSent == 1)
        var mine = try #require(try await phone.photo("photo0000000001"))
        #expect(mine.image.name.hasPrefix("harbour_at_dusk_") && mine.image.name.hasSuffix(".png"))
        #expect(
            try Self.storedFiles("photo0000000001", on: server) == [
                mine.image.name: picture, mine.pages[0].name: notes,
            ])

        try await laptop.photos.sync()
        var seen = try #require(try await laptop.photo("photo0000000001"))
        #expect(seen.image == mine.image)
        #expect(try Data(contentsOf: try await laptop.photos.file(seen.image, of: seen)) == picture)
        #expect(try Data(contentsOf: try await laptop.photos.file(seen.pages[0], of: seen)) == notes)

        // Replaced on the phone, a page added beside the kept one: PocketBase keeps only the named files.
        let second = Self.png(2000, seed: 2)
        mine.image = try phone.attach("harbour.png", second)
        mine.pages.append(try phone.attach("notes.txt", Data("page two".utf8)))
        try await phone.save(mine)
        try await phone.photos.sync()
        mine = try #require(try await phone.photo("photo0000000001"))
        #expect(mine.pages.count == 2)
        #expect(
            Set(try Self.storedFiles("photo0000000001", on: server).keys)
                == Set([mine.image.name] + mine.pages.map(\.name)))
        try await laptop.photos.sync()
        seen = try #require(try await laptop.photo("photo0000000001"))
        #expect(try Data(contentsOf: try await laptop.photos.file(seen.image, of: seen)) == second)

        // Removed on the laptop.
        seen.image = .none
        try await laptop.save(seen)
        try await laptop.photos.sync()
        #expect(Set(try Self.storedFiles("photo0000000001", on: server).keys) == Set(mine.pages.map(\.name)))

        // Refused: too large, then not an image. The title change stays with the write.
        try await phone.photos.sync()
        for (name, bytes, code) in [
            ("huge.png", Self.png(1_100_000, seed: 3), "validation_file_size_limit"),
            ("fake.png", Data("not an image at all".utf8), "validation_invalid_mime_type"),
        ] {
            var photo = try #require(try await phone.photo("photo0000000001"))
            photo.title = "Harbour, " + name
            photo.image = try phone.attach(name, bytes)
            try await phone.save(photo)
            #expect(try await phone.photos.sync().writesRejected == 1)
            let write = try #require(
                try await phone.store.context.read { tx in try tx.fetch(phone.photos.pendingWrites) }.first)
            #expect(write.state == .rejected)
            #expect(write.reason?.contains(code) == true, "\(write.reason ?? "")")
            #expect(try await phone.photo("photo0000000001")?.title == "Harbour, " + name)
            // Without the file, the title goes.
            photo.image = .none
            try await phone.save(photo)
            try await phone.photos.sync()
            let records = try await server.records(of: "photos")
            #expect(records.first?["title"] as? String == "Harbour, " + name)
        }
    }
}

extension PocketBaseInteropTests {
    /// booklab's covers: a cover given on one computer goes up with its book, is in PocketBase's
    /// storage, and another computer saves it (downloaded once); a cover PocketBase refuses (not
    /// an image) is a refused change that names the reason; a cleared cover leaves the server.
    @Test func aBookCoverGivenOnOneComputerIsSavedOnAnother() async throws {
        let server = try PocketBaseServer()
        defer { server.kill(); server.folder.remove() }
        try await server.start()
        let folder = try TemporaryDirectory(prefix: "Covers")
        defer { folder.remove() }
        let desk = Device(store: folder.file("desk.sqlite"), server: server.url)
        let laptop = Device(store: folder.file("laptop.sqlite"), server: server.url)
        try await desk.add("Dune", 1...1)
        let image = folder.file("dune cover.png")
        let picture = Self.png(40_000, seed: 7)
        try picture.write(to: image)
        let set = try await desk.run("cover", "1", image.path)
        #expect(set.status == 0 && set.output.contains("Cover set"), "\(set)")
        #expect(try await desk.sync().status == 0)
        let records = try await server.records()
        let cover = try #require(records.first?["cover"] as? String)
        #expect(cover.hasPrefix("dune_cover_") && cover.hasSuffix(".png"))
        let id = try #require(records.first?["id"] as? String)
        #expect(try Self.storedFiles(id, on: server) == [cover: picture])

        #expect(try await laptop.sync().status == 0)
        #expect(try await laptop.run("show", "1").output.contains("Cover:       \(cover)"))
        let saved = folder.file("saved.png")
        let got = try await laptop.run("cover", "1", "--save", saved.path, "--server", server.url.absoluteString)
        #expect(got.status == 0, "\(got)")
        #expect(try Data(contentsOf: saved) == picture)

        // Not an image: refused, with PocketBase's reason; the book keeps its cover on the server.
        try Data("plain text".utf8).write(to: folder.file("fake.png"))
        #expect(try await laptop.run("cover", "1", folder.file("fake.png").path).status == 0)
        let refused = try await laptop.sync()
        #expect(refused.status != 0 && refused.errorOutput.contains("validation_invalid_mime_type"), "\(refused)")
        #expect(try await server.records().first?["cover"] as? String == cover)

        // Cleared: the server's file goes.
        #expect(try await laptop.run("cover", "1", "--remove").status == 0)
        #expect(try await laptop.sync().status == 0, "the change that clears the cover replaces the refused one")
        #expect(try await server.records().first?["cover"] as? String == "")
        #expect(try Self.storedFiles(id, on: server).isEmpty)
    }
}
