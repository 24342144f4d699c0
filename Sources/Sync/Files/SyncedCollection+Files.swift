import FetchKit
public import Foundation
import Persistence

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Files beside records: attaching a file to a record, getting a record's file, and the copies
/// kept in the folder beside the store (``FileFolder``).
extension SyncedCollection {
    /// Attaches a copy of `file` to a record: the file is copied beside the store (flushed to disk
    /// before it is named) and the result goes in the record's file field; the save that stores
    /// the record queues the upload with the write.
    ///
    /// ```swift
    /// photo.image = try photos.attach(pickedImage)
    /// try await store.context.persist { [photo] tx in try photos.save(photo, in: tx) }
    /// ```
    ///
    /// The copy, not `file`, is uploaded, with the write that carries it, exactly once across
    /// kills and lost answers; once the server has it, the record's field holds the server's name
    /// for it and the copy is kept as that record's file. A file replaced or removed in the
    /// record (a new attachment, ``SyncedFile/none``) goes with the record's next write.
    ///
    /// - Parameter file: the file to attach (a file URL); it is read now and may change or go
    ///   afterwards.
    /// - Returns: the file, named for this device until the server names it.
    /// - Throws: ``SyncError`` with ``SyncError/Code-swift.struct/fileUnavailable`` when `file`
    ///   cannot be read or the copy cannot be written (the store is in memory, or its folder is
    ///   not writable), or ``SyncError/Code-swift.struct/misuse`` when the collection has no file
    ///   fields (``RemoteCollection/files``).
    public func attach(_ file: URL) throws(SyncError) -> SyncedFile {
        let folder = try fileFolder()
        do {
            return SyncedFile(name: try folder.stage(file))
        } catch {
            throw SyncError(
                .fileUnavailable, collection: remote.name,
                "The file \(file.path) could not be attached to a record of \(remote.name): it was not copied into "
                    + "\(folder.staged.path) (\(error.localizedDescription)). Check that the file is readable and the "
                    + "store's folder writable.")
        }
    }

    /// A local copy of a record's file: the copy attached on this device, or the server's file,
    /// downloaded through the collection's client (its authenticator and HTTP cache) the first
    /// time it is asked for and kept beside the store while the record holds it.
    ///
    /// ```swift
    /// let image = try await photos.file(photo.image, of: photo)
    /// ```
    ///
    /// The download is streamed to disk, and the copy replaces any older one in one step once
    /// the whole file is there. Copies of files a record no longer holds (replaced, removed, or
    /// the record deleted) are removed by the runs that bring those changes.
    ///
    /// - Parameters:
    ///   - file: the record's file (a value of one of its file fields).
    ///   - record: the record, as the store holds it.
    /// - Returns: the file's local copy. Read it, or copy it elsewhere: do not move or change it.
    /// - Throws: ``SyncError`` with ``SyncError/Code-swift.struct/fileUnavailable`` for an empty
    ///   field, a name that is not one file name, or a copy that cannot be written;
    ///   ``SyncError/Code-swift.struct/requestFailed`` (or `unauthorized`) when the download fails.
    public func file(_ file: SyncedFile, of record: Entity) async throws(SyncError) -> URL {
        let folder = try fileFolder()
        let key = record.id.databaseValue.identityText
        let name = file.name
        func unavailable(_ why: String) -> SyncError {
            SyncError(
                .fileUnavailable, collection: remote.name, record: key,
                "The file \"\(name)\" of \(remote.name)/\(key) \(why).")
        }
        guard !file.isEmpty else { throw unavailable("is no file (the field is empty)") }
        guard FileFolder.isFileName(name) else { throw unavailable("is not one file name; it is not fetched") }
        if let staged = folder.stagedCopy(name) { return staged }
        let kept = folder.record(key, of: remote.name).appendingPathComponent(name)
        if FileManager.default.fileExists(atPath: kept.path) { return kept }
        // A record read before its upload was acknowledged: the copy is kept under the server's name.
        if FileFolder.isStagedName(name),
            let stored = folder.kept(record: key, of: remote.name).first(where: { remote.files.isUpload($0, name) })
        {
            return kept.deletingLastPathComponent().appendingPathComponent(stored)
        }
        let address = remote.serverID.flatMap { record[keyPath: $0] } ?? key
        do {
            try FileManager.default.createDirectory(
                at: kept.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw unavailable(
                "cannot be kept in \(kept.deletingLastPathComponent().path) (\(error.localizedDescription))")
        }
        do {
            try await download(remote.files.download(address, name), to: kept)
            return kept
        } catch let error as FetchError {
            let unauthorized = error.code == .authenticationFailed || error.statusCode == 401
            throw SyncError(
                unauthorized ? .unauthorized : .requestFailed, collection: remote.name, record: key,
                "Could not download the file \"\(name)\" of \(remote.name)/\(key): \(error.description)",
                fetchError: error)
        } catch {
            throw unavailable("could not be kept in \(kept.path) (\(error.localizedDescription))")
        }
    }

    /// Downloads `request` into `file` in ranges of 8 MiB (a server without ranges sends the
    /// whole body at once), so that no more than a range is ever on its way in memory; `file`
    /// appears whole, or not at all. Downloads of one file at once each write their own hidden
    /// files; the first to finish puts the file in place.
    private func download(_ request: any Endpoint, to file: URL) async throws {
        let folder = file.deletingLastPathComponent()
        let own = ".\(file.lastPathComponent).\(Outbox<Entity>.newKey())"
        let partial = folder.appendingPathComponent(own + ".partial")
        let piece = folder.appendingPathComponent(own + ".range")
        defer {
            try? FileManager.default.removeItem(at: partial)
            try? FileManager.default.removeItem(at: piece)
        }
        func place(_ done: URL) throws {
            do {
                try FileManager.default.moveItem(at: done, to: file)
            } catch  where FileManager.default.fileExists(atPath: file.path) {
                // Another download of the file finished first.
            }
        }
        let range = 8 << 20
        var offset = 0
        _ = FileManager.default.createFile(atPath: partial.path, contents: nil)
        let output = try FileHandle(forWritingTo: partial)
        defer { try? output.close() }
        while true {
            var answer: DownloadedPart?
            do {
                answer = try await client.fetch(
                    ReplacedRequest.range(of: request, from: offset, count: range), extracting: .part(to: piece))
            } catch {
                // An empty file has no first byte to ask for.
                guard offset == 0, error.statusCode == 416 else { throw error }
            }
            guard let part = answer else {
                try place(partial)
                return
            }
            guard part.status == 206 else {
                // The whole body: the server does not answer ranges.
                guard offset == 0 else { throw FileFolder.lie("a whole body after ranges") }
                try place(piece)
                return
            }
            guard let (first, last, total) = ReplacedRequest.contentRange(part.contentRange), first == offset,
                last >= first
            else { throw FileFolder.lie("the range \(part.contentRange ?? "none") for bytes from \(offset)") }
            let input = try FileHandle(forReadingFrom: piece)
            defer { try? input.close() }
            var copied = 0
            while let chunk = try input.read(upToCount: 1 << 20), !chunk.isEmpty {
                try output.write(contentsOf: chunk)
                copied += chunk.count
            }
            guard copied == last - first + 1 else {
                throw FileFolder.lie("\(copied) bytes for the range \(first)-\(last)")
            }
            offset = last + 1
            // The end: the total reached, or (a total the server does not know) a short range.
            if total.map({ offset >= $0 }) ?? (copied < range) {
                try output.synchronize()
                try place(partial)
                return
            }
        }
    }

    /// The folder beside the store; throws when the collection has no file fields or the store
    /// is in memory.
    func fileFolder() throws(SyncError) -> FileFolder {
        guard !remote.files.names.isEmpty else {
            throw SyncError(
                .misuse, collection: remote.name,
                "\(remote.name) has no file fields: name them in its description (RemoteCollection.files, or the "
                    + "PocketBase preset's files:).")
        }
        guard let url = store.url else {
            throw SyncError(
                .fileUnavailable, collection: remote.name,
                "The store of \(remote.name) is in memory: files are kept in a folder beside a store's file.")
        }
        return FileFolder(store: url)
    }

    // MARK: Writes that carry files

    /// The names a record's file fields hold, by field.
    func fileNames(in record: Entity) -> [String: [String]] {
        guard !remote.files.names.isEmpty, let data = try? Outbox<Entity>.encode(record),
            let fields = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        else { return [:] }
        var names: [String: [String]] = [:]
        for field in remote.files.names {
            switch fields[field] {
            case let name as String where !name.isEmpty: names[field] = [name]
            case let list as [Any]: names[field] = list.compactMap { $0 as? String }.filter { !$0.isEmpty }
            default: break
            }
        }
        return names
    }

    /// The files a record holds that the server does not have yet: its staged names that `base`
    /// (the server's record the write starts from) holds no upload of; or the reason the write
    /// cannot be sent (a staged copy gone).
    func uploads(of record: Entity, base: Entity?) -> Result<[FileUpload], SyncError> {
        guard !remote.files.names.isEmpty else { return .success([]) }
        var uploads: [FileUpload] = []
        let stored = base.map(fileNames) ?? [:]
        for (field, names) in fileNames(in: record).sorted(by: { $0.key < $1.key }) {
            for name in names where FileFolder.isStagedName(name) {
                // On the server already (a server that keeps the names it is sent).
                if stored[field, default: []].contains(where: { remote.files.isUpload($0, name) }) { continue }
                guard let folder = try? fileFolder(), let copy = folder.stagedCopy(name) else {
                    let key = record.id.databaseValue.identityText
                    return .failure(
                        SyncError(
                            .fileUnavailable, collection: remote.name, record: key,
                            "The file \"\(name)\" attached to \(remote.name)/\(key) is no longer on this device (its "
                                + "copy beside the store is gone), so the write cannot carry it: attach the file "
                                + "again and save the record."))
                }
                uploads.append(
                    FileUpload(field: field, name: name, file: copy, contentType: FileFolder.contentType(of: name)))
            }
        }
        return .success(uploads)
    }

    /// The timeout of a request that carries `uploads`: its own (or the client's), or the time
    /// the files take at 64 KiB a second when that is longer, so that a large file on a slow link
    /// is not cut off while it still moves.
    func transferTimeout(of request: any Endpoint, _ uploads: [FileUpload]) -> Duration {
        let bytes = uploads.reduce(0) { total, upload in
            total + ((try? FileManager.default.attributesOfItem(atPath: upload.file.path)[.size] as? Int) ?? 0)
        }
        return max(request.timeout ?? client.configuration.timeout, .seconds(bytes / (64 << 10)))
    }

    /// Whether the server's `record` holds every one of `uploads` (the write that carried them
    /// was applied: its answer was lost).
    func holds(_ record: Entity, _ uploads: [FileUpload]) -> Bool {
        let stored = fileNames(in: record)
        return uploads.allSatisfy { upload in
            stored[upload.field, default: []].contains { remote.files.isUpload($0, upload.name) }
        }
    }

    /// `record` with each staged name that `base` holds the upload of replaced by the server's
    /// name: an upload a write before it already made is not made again.
    func knowingUploads(_ record: Entity, base: Entity?) -> Entity {
        guard let base, !remote.files.names.isEmpty else { return record }
        let stored = fileNames(in: base)
        guard !stored.isEmpty, let data = try? Outbox<Entity>.encode(record),
            var fields = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        else { return record }
        var changed = false
        func known(_ name: String, in field: String) -> String? {
            guard FileFolder.isStagedName(name) else { return nil }
            return stored[field]?.first { remote.files.isUpload($0, name) }
        }
        for field in remote.files.names {
            switch fields[field] {
            case let name as String:
                if let server = known(name, in: field) { (fields[field], changed) = (server, true) }
            case let list as [Any]:
                fields[field] = list.map { item -> Any in
                    guard let name = item as? String, let server = known(name, in: field) else { return item }
                    changed = true
                    return server
                }
            default: break
            }
        }
        guard changed, let merged = try? JSONSerialization.data(withJSONObject: fields),
            let decoded = try? SyncJSON.decode(Entity.self, from: merged)
        else { return record }
        return decoded
    }

    // MARK: Kept copies

    /// After a round is settled: each upload the server acknowledged is kept as its record's
    /// file under the server's name, and its staged copy goes once no write of the record waits.
    func keepUploadedFiles(_ round: [PendingWrite], _ outcomes: [Outcome]) async {
        guard let folder = try? fileFolder() else { return }
        var done: [(key: String, staged: [String], answer: Entity)] = []
        for (write, outcome) in zip(round, outcomes) {
            guard case .acknowledged(let answer?) = outcome, let local = try? write.local(as: Entity.self) else {
                continue
            }
            let staged = fileNames(in: local).values.flatMap { $0 }.filter(FileFolder.isStagedName)
            if !staged.isEmpty { done.append((write.recordID, staged, answer)) }
        }
        guard !done.isEmpty else { return }
        // The staged names the records' writes left in the outbox still carry (a write queued
        // behind the acknowledged one, made again over the server's answer, carries its name).
        let outbox = outbox
        let keys = done.map(\.key)
        let carried =
            (try? await read { tx in
                try keys.flatMap { key in
                    try outbox.writes(of: key, in: tx).compactMap { try $0.local(as: Entity.self) }
                }
            }).map { Set($0.flatMap { self.fileNames(in: $0).values.flatMap { $0 } }) }
        for item in done {
            let stored = fileNames(in: item.answer).values.flatMap { $0 }
            for name in item.staged {
                guard let server = stored.first(where: { remote.files.isUpload($0, name) }) else { continue }
                folder.keep(staged: name, as: server, record: item.key, of: remote.name)
                if let carried, !carried.contains(name) {
                    try? FileManager.default.removeItem(at: folder.staged.appendingPathComponent(name))
                }
            }
        }
    }

    /// Removes the staged copies no queued write and no row names (a write discarded, a refused
    /// file replaced or cleared, a conflict the server's record won), an hour after they were
    /// attached: an attachment not saved yet is left that long.
    func sweepStagedFiles(_ folder: FileFolder) async {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.staged.path)) ?? []
        let old = names.filter {
            FileFolder.isStagedName($0) && FileFolder.isAbandoned(folder.staged.appendingPathComponent($0))
        }
        guard !old.isEmpty else { return }
        let name = remote.name
        let fields = remote.files.names
        let held = try? await read { tx -> Set<String> in
            var held = Set<String>()
            for write in try OutboxTable.notAcknowledged(of: name, tx) {
                if let local = try write.local(as: Entity.self) {
                    held.formUnion(self.fileNames(in: local).values.flatMap { $0 })
                }
            }
            for file in old where !held.contains(file) {
                for field in fields
                where try tx.exists(Query<Entity>(where: Field<Entity, String>(field).contains(file))) {
                    held.insert(file)
                }
            }
            return held
        }
        guard let held else { return }
        for file in old where !held.contains(file) {
            try? FileManager.default.removeItem(at: folder.staged.appendingPathComponent(file))
        }
    }

    /// Removes kept copies of files the records no longer hold (replaced, removed, or the record
    /// deleted), and staged copies nothing names, after a run changed rows.
    func sweepFiles() async {
        guard !remote.files.names.isEmpty, let folder = try? fileFolder() else { return }
        await sweepStagedFiles(folder)
        let collection = folder.records(of: remote.name)
        guard let folders = try? FileManager.default.contentsOfDirectory(atPath: collection.path), !folders.isEmpty
        else { return }
        let keys = folders.compactMap { $0 == "%" ? "" : FolderNames.id(ofFolder: $0) }
        guard let rows = try? await read({ tx in try self.rows(keyed: keys, in: tx) }) else { return }
        for key in keys {
            let names = rows[key].map { Set(fileNames(in: $0).values.flatMap { $0 }) } ?? []
            folder.prune(record: key, of: remote.name, keeping: names)
        }
    }

    /// The rows whose keys' text is among `keys`, by that text.
    private func rows(keyed keys: [String], in tx: ObjectTransaction) throws -> [String: Entity] {
        var rows: [String: Entity] = [:]
        for key in keys {
            if let id = Self.identity(key), let row = try tx.fetch(Entity.self, id: id) { rows[key] = row }
        }
        return rows
    }
}
