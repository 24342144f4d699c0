public import Foundation
public import Persistence
public import Sync

/// An offline device's queue of photos for the drain at scale: `count` photos, one in `every`
/// with an image whose bytes the test can work out from the id.
public enum PhotosQueue {
    /// The id of photo `number`: `q` and 14 digits.
    public static func id(_ number: Int) -> String {
        "q" + String(repeating: "0", count: max(0, 14 - String(number).count)) + String(number)
    }

    /// The image bytes of the photo `id` (about 2 KB): a PNG's signature (PocketBase tells a
    /// file's type by its first bytes), then text that names the photo.
    public static func image(of id: String) -> Data {
        Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            + Data(String(repeating: "image of \(id);", count: 80).utf8)
    }

    /// Saves the photos, 500 a transaction; the images are attached first, from files written in
    /// `folder`.
    public static func queue(
        _ count: Int, every: Int, photos: SyncedCollection<Photo>, store: ObjectStore, folder: URL
    ) async throws {
        for start in stride(from: 0, to: count, by: 500) {
            var batch: [Photo] = []
            for number in start..<min(start + 500, count) {
                var photo = Photo(id: id(number), title: "photo \(number)")
                if number % every == 0 {
                    let file = folder.appendingPathComponent("picked-\(photo.id).png")
                    try image(of: photo.id).write(to: file)
                    photo.image = try photos.attach(file)
                    try FileManager.default.removeItem(at: file)
                }
                batch.append(photo)
            }
            let saving = batch
            try await store.context.persist { tx in
                for photo in saving { try photos.save(photo, in: tx) }
            }
        }
    }
}
