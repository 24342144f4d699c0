import Foundation
import Locking

/// An ``HTTPCache``'s entries as files, `<hash of the key>.fkcache`, in the format of
/// ``CacheEntryFile``; several processes may share the folder.
///
/// - Reads use plain `read(2)` calls into memory, never a memory mapping: a file that
///   another process truncates while it is read is a short read, not a `SIGBUS`.
/// - Anything at an entry's name that is not one whole, checksummed entry (damage, the
///   earlier format, an unreadable file, a directory or another kind of file) is a miss,
///   and is removed: a file or link is unlinked, a directory only when it is empty.
/// - Writes go to a temporary file in the folder, which is renamed over the entry's name:
///   a reader sees the whole old entry or the whole new one. A failed write removes its
///   temporary file.
final class DiskStore: Sendable {
    private let directory: URL
    private let limit: Int
    /// Bytes written since the folder was last measured; the folder is measured again (and
    /// trimmed) once they could have pushed it over the limit.
    private let written = Locked<Int?>(nil)

    /// The prefix of temporary files; a crashed writer's are removed once they are old.
    private static let temporaryPrefix = ".tmp-"
    /// How old a temporary file is when no writer can still be writing it.
    private static let staleTemporaryAge: TimeInterval = 600

    init(directory: URL, limit: Int) {
        self.directory = directory
        self.limit = limit
    }

    var count: Int { listing().entries.count }

    func get(_ key: String) -> CachedResponse? {
        let path = file(for: key).path
        // O_NONBLOCK: a FIFO put in the entry's place must not block the open.
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            let failure = errno
            // Nothing stored, or no descriptors or memory to spare right now: a plain miss.
            // Anything else (no permission, a link, a socket) is an entry that cannot be read.
            if ![ENOENT, EMFILE, ENFILE, ENOMEM, EINTR].contains(failure) { removeDamaged(at: path, read: nil) }
            return nil
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        guard Self.isRegularFile(info),
            let entry = CacheEntryFile.read(from: descriptor, size: Int(info.st_size), bodyLimit: limit)
        else {
            removeDamaged(at: path, read: info)
            return nil
        }
        // Another key with the same hash: its entry is whole, so it stays.
        guard entry.key == key else { return nil }
        // Mark it recently used for eviction.
        _ = futimens(descriptor, nil)
        return entry
    }

    func put(_ entry: CachedResponse) {
        guard let (prefixAndHead, body) = CacheEntryFile.encode(entry) else { return }
        let target = file(for: entry.key).path
        let temporary = directory.appendingPathComponent(Self.temporaryPrefix + UUID().uuidString).path
        // Readable by this user only: the entries are one user's responses.
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return }
        let complete = writeFully(descriptor, prefixAndHead) && writeFully(descriptor, body)
        let closed = close(descriptor) == 0
        guard complete, closed, rename(temporary, target) == 0 else {
            _ = unlink(temporary)
            return
        }
        let measure = written.withLock { written -> Bool in
            let total = (written ?? 0) + prefixAndHead.count + body.count
            written = total
            return total > limit / 4
        }
        if measure { trim() }
    }

    func remove(_ key: String) {
        _ = unlink(file(for: key).path)
    }

    func removeAll() {
        for entry in listing().entries { _ = unlink(entry.url.path) }
    }

    /// Removes what is at `path` after a read found no entry there, unless it is no longer
    /// what was read (another process renamed a whole entry into place meanwhile).
    ///
    /// - Parameter read: what was opened, or `nil` when it could not be opened.
    private func removeDamaged(at path: String, read: stat?) {
        var current = stat()
        guard lstat(path, &current) == 0 else { return }
        if let read, read.st_dev != current.st_dev || read.st_ino != current.st_ino { return }
        if Self.isDirectory(current) {
            // Only an empty one: a folder with files in it is not the cache's to delete.
            _ = rmdir(path)
        } else {
            _ = unlink(path)
        }
    }

    /// Removes the least recently used entries until the folder is within the limit, and
    /// the temporary files of writers that crashed.
    private func trim() {
        written.withLock { $0 = 0 }
        let found = listing()
        let stale = Date().addingTimeInterval(-Self.staleTemporaryAge)
        for temporary in found.temporaries where temporary.used < stale { _ = unlink(temporary.url.path) }
        var total = found.entries.reduce(0) { $0 + $1.size }
        guard total > limit else { return }
        for entry in found.entries.sorted(by: { $0.used < $1.used }) {
            guard total > limit * 9 / 10 else { break }
            _ = unlink(entry.url.path)
            total -= entry.size
        }
    }

    private typealias Item = (url: URL, size: Int, used: Date)

    /// The folder's entry files (regular files only) and temporary files.
    private func listing() -> (entries: [Item], temporaries: [Item]) {
        let keys: Set<URLResourceKey> = [.fileSizeKey, .contentModificationDateKey, .isRegularFileKey]
        guard
            let urls = try? FileManager.default.contentsOfDirectory(
                at: directory, includingPropertiesForKeys: Array(keys))
        else { return ([], []) }
        var entries: [Item] = []
        var temporaries: [Item] = []
        for url in urls {
            let isEntry = url.pathExtension == "fkcache"
            guard isEntry || url.lastPathComponent.hasPrefix(Self.temporaryPrefix),
                let values = try? url.resourceValues(forKeys: keys), values.isRegularFile == true
            else { continue }
            let item = (url, values.fileSize ?? 0, values.contentModificationDate ?? .distantPast)
            if isEntry { entries.append(item) } else { temporaries.append(item) }
        }
        return (entries, temporaries)
    }

    private func file(for key: String) -> URL {
        // FNV-1a, 64 bits: a file name that says nothing about the URL.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let name = String(hash, radix: 16)
        return directory.appendingPathComponent(String(repeating: "0", count: 16 - name.count) + name + ".fkcache")
    }

    // The file-type bits of `st_mode` (POSIX's S_IFMT, S_IFREG, S_IFDIR).
    private static func isRegularFile(_ info: stat) -> Bool { info.st_mode & 0o170_000 == 0o100_000 }
    private static func isDirectory(_ info: stat) -> Bool { info.st_mode & 0o170_000 == 0o040_000 }
}

/// Writes all of `data`; `false` on a write error.
private func writeFully(_ descriptor: Int32, _ data: Data) -> Bool {
    data.withUnsafeBytes { bytes -> Bool in
        guard let base = bytes.baseAddress else { return true }
        var done = 0
        while done < bytes.count {
            let count = write(descriptor, base + done, bytes.count - done)
            if count > 0 {
                done += count
            } else if count < 0, errno == EINTR {
                continue
            } else {
                return false
            }
        }
        return true
    }
}
