import FetchKit
import Foundation
import Locking
import Persistence

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The files of a store's records, in a folder beside the store (`<store>.files`): the files
/// attached on this device and not yet uploaded (`staged/<name>`), and the files of records kept
/// on this device, uploaded from here or downloaded (`records/<collection>/<key>/<name>`).
///
/// A staged file is complete or absent: it is copied under a hidden name, flushed to disk and
/// renamed, so a write in the outbox never names half a file. Its name is the attached file's
/// name in PocketBase's form (lowercase words joined by `_`), then `_` and 12 random characters,
/// then the extension: no server's name ends so (PocketBase ends every name it stores with `_`
/// and 10 random characters), and PocketBase stores it as that name with its own suffix added,
/// by which the upload is recognised (``holds(_:upload:)``).
struct FileFolder: Sendable {
    /// The folder beside the store.
    let root: URL

    /// The folder of the store at `store`.
    init(store: URL) {
        root = store.deletingLastPathComponent().appendingPathComponent(store.lastPathComponent + ".files")
    }

    /// The folder of the files attached and not yet uploaded.
    var staged: URL { root.appendingPathComponent("staged", isDirectory: true) }

    /// The folder of a collection's kept files.
    func records(of collection: String) -> URL {
        root.appendingPathComponent("records", isDirectory: true)
            .appendingPathComponent(Self.folder(of: collection), isDirectory: true)
    }

    /// The folder of a record's kept files.
    func record(_ key: String, of collection: String) -> URL {
        records(of: collection).appendingPathComponent(Self.folder(of: key), isDirectory: true)
    }

    /// The folder name of an identity; `%` (a name ``FolderNames`` never gives) for an empty one.
    static func folder(of id: String) -> String {
        id.isEmpty ? "%" : FolderNames.name(of: id)
    }

    /// The staged copy of `name`, when `name` is a staged name and the copy is there.
    func stagedCopy(_ name: String) -> URL? {
        guard Self.isStagedName(name) else { return nil }
        let file = staged.appendingPathComponent(name)
        return FileManager.default.fileExists(atPath: file.path) ? file : nil
    }

    /// Copies `file` into the staged folder under a new staged name, flushed to disk before it
    /// takes that name; returns the name.
    func stage(_ file: URL) throws -> String {
        try FileManager.default.createDirectory(at: staged, withIntermediateDirectories: true)
        let name = Self.stagedName(for: file.lastPathComponent)
        let partial = staged.appendingPathComponent(".\(name).partial")
        do {
            try Self.copyFlushed(file, to: partial)
            try FileManager.default.moveItem(at: partial, to: staged.appendingPathComponent(name))
        } catch {
            try? FileManager.default.removeItem(at: partial)
            throw error
        }
        Self.flushFolder(staged)
        removeAbandonedCopies()
        return name
    }

    /// The staged folders whose abandoned copies this process removed.
    private static let swept = Locked<Set<String>>([])

    /// Removes the half copies of attachments a process ended in the middle of (an hour old or
    /// more: no copy takes that long), once a process for each folder.
    private func removeAbandonedCopies() {
        guard Self.swept.withLock({ $0.insert(staged.path).inserted }) else { return }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: staged.path)) ?? []
        for name in names where name.hasPrefix(".") && name.hasSuffix(".partial") {
            let file = staged.appendingPathComponent(name)
            if Self.isAbandoned(file) { try? FileManager.default.removeItem(at: file) }
        }
    }

    /// Whether a file was last written an hour ago or more (no copy or range takes that long).
    static func isAbandoned(_ file: URL) -> Bool {
        let modified = (try? FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate]) as? Date
        return modified.map { Date().timeIntervalSince($0) > 3600 } ?? false
    }

    /// Keeps the staged `name` as the record's file `stored` (a link, or a copy where links are
    /// not possible); the staged copy stays.
    func keep(staged name: String, as stored: String, record key: String, of collection: String) {
        guard let source = stagedCopy(name), Self.isFileName(stored) else { return }
        let folder = record(key, of: collection)
        let target = folder.appendingPathComponent(stored)
        guard !FileManager.default.fileExists(atPath: target.path) else { return }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            do {
                try FileManager.default.linkItem(at: source, to: target)
            } catch {
                // A copy under a hidden name, renamed whole: a copy cut short is never the file.
                let copy = folder.appendingPathComponent(".\(stored).keeping")
                defer { try? FileManager.default.removeItem(at: copy) }
                try Self.copyFlushed(source, to: copy)
                try FileManager.default.moveItem(at: copy, to: target)
            }
        } catch {
            // Kept only to spare a download: the file is downloaded when asked for.
        }
    }

    /// The files kept for a record (its hidden files, downloads on their way, left out).
    func kept(record key: String, of collection: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: record(key, of: collection).path)) ?? []
        return names.filter { !$0.hasPrefix(".") }
    }

    /// Removes the files of a record's folder that are not in `names` (a download on its way is
    /// left to end, unless an ended process left it an hour ago), and the folder when nothing
    /// is left.
    func prune(record key: String, of collection: String, keeping names: Set<String>) {
        let folder = record(key, of: collection)
        let present = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in present where !names.contains(name) {
            let file = folder.appendingPathComponent(name)
            if name.hasPrefix("."), !Self.isAbandoned(file) { continue }
            try? FileManager.default.removeItem(at: file)
        }
        if (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.isEmpty == true {
            try? FileManager.default.removeItem(at: folder)
        }
    }

    // MARK: Names

    /// Whether `name` can be one file in a folder: not empty, no `/` or NUL, not `.` or `..`, and
    /// at most 255 bytes.
    static func isFileName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && name.utf8.count <= 255
            && !name.utf8.contains(where: { $0 == UInt8(ascii: "/") || $0 == 0 })
    }

    /// Whether `name` is a staged name: a stem, `_`, 12 characters of `[a-z0-9]`, and an
    /// optional extension.
    static func isStagedName(_ name: String) -> Bool {
        guard isFileName(name) else { return false }
        let stem = name.split(separator: ".", maxSplits: 1).first.map(String.init) ?? name
        let parts = stem.split(separator: "_", omittingEmptySubsequences: false)
        guard parts.count >= 2, let suffix = parts.last else { return false }
        return suffix.count == 12 && suffix.utf8.allSatisfy(isLowerAlphanumeric)
    }

    /// A new staged name for an attached file called `original`.
    static func stagedName(for original: String) -> String {
        let dot = original.lastIndex(of: ".")
        let base = dot.map { String(original[..<$0]) } ?? original
        var ext = dot.map { String(original[original.index(after: $0)...]) } ?? ""
        ext = String(ext.lowercased().utf8.filter(isLowerAlphanumeric).prefix(10).map { Character(Unicode.Scalar($0)) })
        var words: [String] = []
        var word = ""
        for byte in base.lowercased().utf8 {
            if isLowerAlphanumeric(byte) {
                word.append(Character(Unicode.Scalar(byte)))
            } else if !word.isEmpty {
                words.append(word)
                word = ""
            }
        }
        if !word.isEmpty { words.append(word) }
        var stem = String(words.joined(separator: "_").prefix(40))
        while stem.hasSuffix("_") { stem.removeLast() }
        if stem.count < 3 { stem = "file" }
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        var generator = SystemRandomNumberGenerator()
        let token = String((0..<12).map { _ in alphabet[Int(generator.next(upperBound: UInt(alphabet.count)))] })
        return stem + "_" + token + (ext.isEmpty ? "" : "." + ext)
    }

    /// Whether the server's name `stored` is the upload of the staged `name`: the staged name's
    /// stem, `_`, 10 characters of `[a-z0-9]`, and the staged name's extension (any, when it had
    /// none: the server may take one from the file's content).
    static func holds(_ stored: String, upload name: String) -> Bool {
        let dot = name.firstIndex(of: ".")
        let stem = dot.map { String(name[..<$0]) } ?? name
        let ext = dot.map { String(name[$0...]) } ?? ""
        guard stored.hasPrefix(stem + "_") else { return false }
        var rest = stored.dropFirst(stem.count + 1)
        let random = rest.prefix(10)
        // PocketBase 0.23 and later use `[a-z0-9]`; earlier versions, letters of both cases.
        guard random.count == 10, random.utf8.allSatisfy({ isLowerAlphanumeric($0) || (65...90).contains($0) })
        else { return false }
        rest = rest.dropFirst(10)
        return ext.isEmpty ? (rest.isEmpty || rest.hasPrefix(".")) : rest == ext
    }

    /// The content type of a file by its name's extension.
    static func contentType(of name: String) -> String {
        let ext = name.split(separator: ".").last.map { $0.lowercased() } ?? ""
        return contentTypes[ext] ?? "application/octet-stream"
    }

    private static let contentTypes: [String: String] = [
        "jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png", "gif": "image/gif", "webp": "image/webp",
        "heic": "image/heic", "svg": "image/svg+xml", "pdf": "application/pdf", "txt": "text/plain",
        "json": "application/json", "csv": "text/csv", "mp4": "video/mp4", "mov": "video/quicktime",
        "mp3": "audio/mpeg", "m4a": "audio/mp4", "zip": "application/zip",
    ]

    private static func isLowerAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// The error of a download whose server answered what was not asked.
    static func lie(_ what: String) -> FetchError {
        FetchError(
            code: .badResponse,
            detail: "the server sent \(what) in answer to a request for a range of a file; the download was dropped")
    }

    // MARK: Copies

    /// Copies `source` to `target` in 1 MiB chunks and flushes it to disk.
    static func copyFlushed(_ source: URL, to target: URL) throws {
        let input = try FileHandle(forReadingFrom: source)
        defer { try? input.close() }
        guard FileManager.default.createFile(atPath: target.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: target.path])
        }
        let output = try FileHandle(forWritingTo: target)
        defer { try? output.close() }
        while let chunk = try input.read(upToCount: 1 << 20), !chunk.isEmpty {
            try output.write(contentsOf: chunk)
        }
        try output.synchronize()
    }

    /// Flushes a folder's entries (a rename in it) to disk.
    static func flushFolder(_ folder: URL) {
        let descriptor = open(folder.path, O_RDONLY)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }
}
