import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a file to upload is at one moment: which file (its device and inode), how long it is,
/// when it was last modified, and how many names it has.
///
/// A request records one when it is built (its `Content-Length` is the size); the upload
/// compares the file with it before and while it sends it, so a file that is truncated,
/// appended to, rewritten, replaced or deleted meanwhile fails the request with
/// ``FetchError/Code-swift.struct/fileUnavailable`` instead of sending other bytes than announced.
struct FileSnapshot: Sendable, Equatable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modifiedSeconds: Int64
    var modifiedNanoseconds: Int64
    /// The number of names the file has; 0 once its last name was removed.
    var links: UInt64
    var isRegularFile: Bool

    /// The file at `path` now (following symbolic links), or `nil` with `errno` set.
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        self.init(info)
    }

    /// The file open as `descriptor` now, or `nil` with `errno` set.
    init?(descriptor: Int32) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        self.init(info)
    }

    private init(_ info: stat) {
        device = UInt64(truncatingIfNeeded: info.st_dev)
        inode = UInt64(truncatingIfNeeded: info.st_ino)
        size = Int64(info.st_size)
        links = UInt64(truncatingIfNeeded: info.st_nlink)
        isRegularFile = (info.st_mode & mode_t(S_IFMT)) == mode_t(S_IFREG)
        #if canImport(Darwin)
            modifiedSeconds = Int64(info.st_mtimespec.tv_sec)
            modifiedNanoseconds = Int64(info.st_mtimespec.tv_nsec)
        #else
            modifiedSeconds = Int64(info.st_mtim.tv_sec)
            modifiedNanoseconds = Int64(info.st_mtim.tv_nsec)
        #endif
    }

    /// Whether `other` is the same file as this one, unchanged: same device and inode, same
    /// size and modification time. (The number of links is not compared: see ``change(since:)``.)
    func isUnchanged(from other: FileSnapshot) -> Bool {
        device == other.device && inode == other.inode && size == other.size
            && modifiedSeconds == other.modifiedSeconds && modifiedNanoseconds == other.modifiedNanoseconds
    }

    /// What happened to the file since `before`, in words that follow its path ("was
    /// truncated…"), or `nil` when it is the same file, unchanged and still named.
    func change(since before: FileSnapshot) -> String? {
        if device != before.device || inode != before.inode { return "was replaced by another file" }
        if links == 0 { return "was deleted" }
        if size < before.size { return "was truncated to \(size) of the \(before.size) bytes its request announced" }
        if size > before.size { return "grew to \(size) bytes from the \(before.size) its request announced" }
        if modifiedSeconds != before.modifiedSeconds || modifiedNanoseconds != before.modifiedNanoseconds {
            return "was modified"
        }
        return nil
    }
}

extension FileSnapshot {
    /// The file to upload as `request` announces it: the file as it is now, when its size is
    /// the request's `Content-Length` (or the request names none).
    ///
    /// - Throws: ``FetchError/Code-swift.struct/fileUnavailable`` when the file is missing,
    ///   unreadable, not a regular file, or of another size than announced.
    static func announced(_ file: URL, by request: URLRequest) throws(FetchError) -> FileSnapshot {
        let now = try BuiltRequest.snapshot(of: file)
        if let field = request.value(forHTTPHeaderField: "Content-Length"), let length = Int64(field),
            length != now.size
        {
            var announced = now
            announced.size = length
            throw FetchError.uploadFileChanged(file, now.change(since: announced) ?? "changed size")
        }
        return now
    }
}

extension FetchError {
    /// The ``FetchError/Code-swift.struct/fileUnavailable`` error of an upload file that changed
    /// while its request ran: `what` says how ("was truncated to…").
    static func uploadFileChanged(_ file: URL, _ what: String) -> FetchError {
        FetchError(
            code: .fileUnavailable,
            detail: "the upload file \(file.path) \(what) while its request was sent. "
                + "Upload a file that is complete and does not change until the request ends")
    }

    /// The ``FetchError/Code-swift.struct/fileUnavailable`` error of an upload file that cannot be read.
    static func uploadFileUnreadable(_ file: URL, _ what: String, errno code: Int32) -> FetchError {
        FetchError(
            code: .fileUnavailable,
            detail: "the upload file \(file.path) \(what) (\(String(cString: strerror(code)))). "
                + "Check that it exists and is readable")
    }
}

/// Reads a file to upload with plain `read(2)` calls: exactly the bytes its request announced,
/// checking after every read that the file is still the one the request was built with.
///
/// It never maps the file into memory (a mapped file that is truncated kills the process with
/// `SIGBUS` when the lost pages are touched), and it never trusts the size: a file that ends
/// before the announced length, has bytes beyond it, or is replaced, deleted or modified
/// meanwhile makes ``read(into:count:)`` throw ``FetchError/Code-swift.struct/fileUnavailable``
/// naming the file and what happened to it. One reader is used by one thread at a time.
final class UploadFileReader {
    let file: URL
    /// The file as its request announced it.
    let expected: FileSnapshot
    private var descriptor: Int32 = -1
    /// How many bytes ``read(into:count:)`` has returned since the file was opened.
    private(set) var offset: Int64 = 0

    init(file: URL, expected: FileSnapshot) {
        self.file = file
        self.expected = expected
    }

    deinit {
        close()
    }

    /// Opens the file (again, from its start, if it was open) and checks that it is the one
    /// its request announced.
    func open() throws(FetchError) {
        close()
        var opened: Int32
        repeat {
            opened = Self.openReadOnly(file.path)
        } while opened < 0 && errno == EINTR
        guard opened >= 0 else { throw FetchError.uploadFileUnreadable(file, "cannot be opened", errno: errno) }
        descriptor = opened
        try check()
    }

    /// Closes the file; reading then fails until it is opened again.
    func close() {
        guard descriptor >= 0 else { return }
        _ = Self.closeDescriptor(descriptor)
        descriptor = -1
    }

    /// Reads the next bytes of the file into `buffer`, at most `count`, after checking that
    /// the file has not changed.
    ///
    /// - Returns: the number of bytes read; 0 once the announced length has been read and the
    ///   file ends there too.
    /// - Throws: ``FetchError/Code-swift.struct/fileUnavailable`` when the file cannot be read,
    ///   ends early, goes on past the announced length, or changed in another way.
    func read(into buffer: UnsafeMutableRawPointer, count: Int) throws(FetchError) -> Int {
        guard descriptor >= 0 else { throw FetchError.uploadFileUnreadable(file, "is not open", errno: EBADF) }
        let remaining = expected.size - offset
        if remaining <= 0 {
            // The announced end: the file must end here too.
            var byte: UInt8 = 0
            var extra: Int
            repeat {
                extra = pread(descriptor, &byte, 1, off_t(offset))
            } while extra < 0 && errno == EINTR
            if extra < 0 { throw FetchError.uploadFileUnreadable(file, "could not be read", errno: errno) }
            try check()
            if extra > 0 {
                throw FetchError.uploadFileChanged(
                    file, "has more than the \(expected.size) bytes its request announced")
            }
            return 0
        }
        let wanted = Int(min(Int64(max(count, 0)), remaining))
        guard wanted > 0 else { return 0 }
        var got: Int
        repeat {
            got = Self.readDescriptor(descriptor, buffer, wanted)
        } while got < 0 && errno == EINTR
        if got < 0 { throw FetchError.uploadFileUnreadable(file, "could not be read", errno: errno) }
        // Bytes read from a file that changed meanwhile are not sent.
        try check()
        if got == 0 {
            throw FetchError.uploadFileChanged(
                file, "ended after \(offset) of the \(expected.size) bytes its request announced")
        }
        offset += Int64(got)
        return got
    }

    /// The next bytes of the file, at most `count`, checked as ``read(into:count:)`` checks
    /// them; empty once the announced length has been read and the file ends there too.
    func read(upToCount count: Int) throws(FetchError) -> Data {
        var data = Data(count: max(count, 1))
        var result: Result<Int, FetchError> = .success(0)
        data.withUnsafeMutableBytes { (buffer: UnsafeMutableRawBufferPointer) in
            guard let start = buffer.baseAddress else { return }
            do throws(FetchError) {
                result = .success(try read(into: start, count: buffer.count))
            } catch {
                result = .failure(error)
            }
        }
        let count = try result.get()
        return count == data.count ? data : data.prefix(count)
    }

    /// Reads the whole file into memory, checked as ``read(into:count:)`` checks it.
    func readAll() throws(FetchError) -> Data {
        try open()
        defer { close() }
        let size = Int(expected.size)
        var data = Data(count: size)
        var failure: FetchError?
        data.withUnsafeMutableBytes { (buffer: UnsafeMutableRawBufferPointer) in
            do throws(FetchError) {
                var filled = 0
                while filled < size, let start = buffer.baseAddress {
                    // Never 0 before the announced end: a file that ends early throws.
                    filled += try read(into: start + filled, count: min(size - filled, 1 << 20))
                }
                var end: UInt8 = 0
                _ = try read(into: &end, count: 1)  // checks that the file ends where announced
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        return data
    }

    /// Throws when the open file, or the file at its path, is not the one announced.
    private func check() throws(FetchError) {
        guard let now = FileSnapshot(descriptor: descriptor) else {
            throw FetchError.uploadFileUnreadable(file, "could not be examined", errno: errno)
        }
        if let change = now.change(since: expected) { throw FetchError.uploadFileChanged(file, change) }
        guard let named = FileSnapshot(path: file.path) else {
            throw FetchError.uploadFileChanged(file, "was deleted or moved")
        }
        if named.device != expected.device || named.inode != expected.inode {
            throw FetchError.uploadFileChanged(file, "was replaced by another file")
        }
    }

    private static func openReadOnly(_ path: String) -> Int32 {
        #if canImport(Darwin)
            Darwin.open(path, O_RDONLY | O_CLOEXEC)
        #elseif canImport(Musl)
            Musl.open(path, O_RDONLY | O_CLOEXEC)
        #else
            Glibc.open(path, O_RDONLY | O_CLOEXEC)
        #endif
    }

    private static func readDescriptor(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        #if canImport(Darwin)
            Darwin.read(descriptor, buffer, count)
        #elseif canImport(Musl)
            Musl.read(descriptor, buffer, count)
        #else
            Glibc.read(descriptor, buffer, count)
        #endif
    }

    private static func closeDescriptor(_ descriptor: Int32) -> Int32 {
        #if canImport(Darwin)
            Darwin.close(descriptor)
        #elseif canImport(Musl)
            Musl.close(descriptor)
        #else
            Glibc.close(descriptor)
        #endif
    }
}
