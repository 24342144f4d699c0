import ExampleSupport
import Foundation
import Sync

/// `booklab cover`: gives a book a cover (sent with the book at the next sync), clears it, or
/// saves a book's cover to a file (downloaded from the sync server the first time).
///
///     booklab cover <book> <image file>
///     booklab cover <book> --remove
///     booklab cover <book> --save <file> [--server <url>] [--token <token>]
struct CoverCommand {
    let library: Library

    /// Sets or clears the cover of `book`.
    func set(_ book: LibraryBook, to image: URL?) async throws {
        if let image, !FileManager.default.isReadableFile(atPath: image.path) {
            throw ExampleFailure("cannot read the image \(image.path)", fix: "check the file's path")
        }
        Interrupts.keep("your library is unchanged")
        do {
            try await library.setCover(of: book, to: image)
        } catch let error as SyncError {
            throw ExampleFailure(
                "the cover was not set: \(error.message)", fix: "check the image and the library's folder")
        }
        Interrupts.keep("the cover was saved")
        print(
            image == nil
                ? "Cover cleared: \(book.line) (the server's goes at the next sync)"
                : "Cover set: \(book.line) (it goes up with the next sync)")
    }

    /// Saves the cover of `book` to `file`: the copy kept beside the library, or the server's,
    /// downloaded once.
    func save(_ book: LibraryBook, to file: URL, server: URL, token: String?) async throws {
        guard let cover = book.cover, !cover.isEmpty else {
            throw ExampleFailure(
                "\(book.line) has no cover", fix: "give it one with 'booklab cover <book> <image file>'")
        }
        let client = try SyncCommand(library: library, server: server, token: token).client()
        let mirror = try Library.mirror(of: library.store, server: server, client: client)
        let local: URL
        do {
            local = try await mirror.file(cover, of: book)
        } catch {
            throw ExampleFailure(
                "the cover could not be fetched: \(error.message)", fix: "check the server (--server) and try again")
        }
        if FileManager.default.fileExists(atPath: file.path) { try FileManager.default.removeItem(at: file) }
        try FileManager.default.copyItem(at: local, to: file)
        let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
        print("Saved the cover of \(book.line) to \(file.path) (\(size) bytes)")
    }
}
