import Decoding
import ExampleSupport
import FetchKit
import Foundation
import Persistence

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One fetch of recent geo-referenced photos: download, decode, upsert.
///
/// The download is one `fetch` to a file, shared by its key (`recent-photos`: a second request
/// while one is in flight joins it instead of starting another). The client's pipeline checks
/// Flickr's `"stat": "fail"` with its failure detector and redacts the key from what the
/// server says; the file is then decoded at `photos.photo` and upserted by photo id in one
/// `persist` transaction.
final class RecentPhotosFetcher: Sendable {
    /// The download's key: a second fetch while one is in flight joins it.
    static let downloadKey = "recent-photos"

    private let endpoint: FlickrEndpoint
    private let client: FetchClient
    private let store: ObjectStore
    private let file: URL
    private let keyHint: String
    private let progress: (@Sendable (String) -> Void)?

    /// Creates the fetcher.
    ///
    /// - Parameters:
    ///   - endpoint: the search to run.
    ///   - client: its configuration builds the request (timeout, the key adapter), detects
    ///     Flickr's failures and redacts the key.
    ///   - store: where photos go.
    ///   - file: where the download lands.
    ///   - keyHint: what to check when Flickr refuses the key.
    ///   - progress: told about each step, or nil for quiet.
    init(
        endpoint: FlickrEndpoint, client: FetchClient, store: ObjectStore, file: URL, keyHint: String,
        progress: (@Sendable (String) -> Void)?
    ) {
        self.endpoint = endpoint
        self.client = client
        self.store = store
        self.file = file
        self.keyHint = keyHint
        self.progress = progress
    }

    /// Runs one fetch.
    ///
    /// - Returns: what it came to.
    /// - Throws: `FetchError` (the request or the transfer failed), ``FlickrError`` (Flickr
    ///   refused, the answer is unreadable, the store failed), or `CancellationError`.
    func fetch() async throws -> FetchReport {
        var report = FetchReport()
        let downloaded = try await download()
        defer { try? FileManager.default.removeItem(at: downloaded) }
        let data: Data
        do {
            data = try Data(contentsOf: downloaded)
        } catch {
            throw FlickrError(
                kind: .unreadableResponse,
                description: "cannot read the downloaded answer: \(error.localizedDescription)")
        }
        report.bytes = data.count
        progress?("downloaded \(Self.downloadKey): \(Self.size(data.count))")

        let now = Date()
        let (photos, skipped) = try decode(data, fetchedAt: now)
        report.received = photos.count + skipped.count
        report.skipped = skipped
        progress?(receivedLine(report))

        let (new, updated, stored) = try await upsert(photos)
        (report.new, report.updated, report.stored) = (new, updated, stored)
        return report
    }

    /// Lets the request in progress finish its attempt and starts no other: after a Ctrl-C,
    /// a slow or failing server ends the run instead of being retried.
    func stopRetrying() {
        client.stopRetrying()
    }

    // MARK: Steps

    /// Downloads the search's answer to the file, joining a download of the same key in flight.
    /// Flickr's `"stat": "fail"` is a ``FlickrError`` (its message already redacted).
    private func download() async throws -> URL {
        do {
            return try await client.fetch(endpoint, extracting: .file(to: file), sharing: Self.downloadKey)
        } catch {
            guard error.code == .apiFailure, let failure = error.reportedFailure else { throw error }
            throw FlickrError.apiFailure(failure, keyHint: keyHint)
        }
    }

    /// Decodes `photos.photo`, leaving out (and reporting) photos that do not decode or
    /// have no usable location.
    private func decode(_ data: Data, fetchedAt now: Date) throws -> ([StoredPhoto], [FetchReport.Skipped]) {
        let decoded: LossyArray<FlickrPhoto>
        let report: DecodingReport
        do {
            (decoded, report) = try PathDecoder().decodeWithReport(
                LossyArray<FlickrPhoto>.self, from: data, at: "photos.photo")
        } catch {
            throw FlickrError(
                kind: .unreadableResponse, description: "Flickr's answer has no readable photo list: \(error)")
        }
        var skipped = report.entries(.skippedElement).map { FetchReport.Skipped(id: nil, reason: $0.description) }
        var photos: [StoredPhoto] = []
        var seen = Set<String>()
        for photo in decoded.wrappedValue where seen.insert(photo.id).inserted {
            switch photo.stored(fetchedAt: now) {
            case .success(let stored): photos.append(stored)
            case .failure(let unusable): skipped.append(FetchReport.Skipped(id: photo.id, reason: unusable.description))
            }
        }
        return (photos, skipped)
    }

    /// Upserts the photos by id in one transaction, keeping each one's first-fetched time, after
    /// their photographers (with the name Flickr sent last) and places.
    private func upsert(_ stored: [StoredPhoto]) async throws -> (new: Int, updated: Int, stored: Int) {
        do {
            return try await store.context.persist { tx in
                for entry in stored {
                    try tx.upsert(entry.photographer)
                    guard var place = entry.place else { continue }
                    // A photo sent without the place's Where On Earth id keeps the one stored.
                    if place.woeid == nil { place.woeid = try tx.fetch(Place.self, id: place.id)?.woeid }
                    try tx.upsert(place)
                }
                let photos = stored.map(\.photo)
                var new = 0
                for photo in photos {
                    let outcome = try tx.upsert(photo, onConflict: [.keep(Photo.firstFetchedField)])
                    if outcome == .inserted { new += 1 }
                }
                return (new, photos.count - new, try tx.count(Query<Photo>()))
            }
        } catch let error as CancellationError {
            throw error
        } catch {
            throw FlickrError(
                kind: .store, description: ExampleFailure.store("cannot store the photos", error).description)
        }
    }

    // MARK: Text

    private func receivedLine(_ report: FetchReport) -> String {
        var line = "received \(FetchReport.count(report.received, "photo"))"
        guard !report.skipped.isEmpty else { return line }
        let examples = report.skipped.prefix(3).map { skipped in
            skipped.id.map { "\($0): \(skipped.reason)" } ?? skipped.reason
        }
        let more = report.skipped.count > 3 ? ", …" : ""
        line +=
            "; skipped \(report.skipped.count) without a usable location (\(examples.joined(separator: "; "))\(more))"
        return line
    }

    private static func size(_ bytes: Int) -> String {
        bytes < 10_000 ? "\(bytes) bytes" : "\(bytes / 1000) kB"
    }
}
