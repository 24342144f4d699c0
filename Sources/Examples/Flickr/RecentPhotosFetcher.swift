import Decoding
import ExampleSupport
import FetchKit
import Foundation
import Persistence
import Sync

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One fetch of recent geo-referenced photos: a run of a snapshot mirror of Flickr's recent photos.
///
/// Flickr has no change feed for a search, so the collection is a snapshot
/// (`CursorKind.snapshot`): every run walks the newest ``pages`` pages of ``perPage`` photos,
/// each page applied in one transaction with the photographers and places it names
/// (`ChangePage.storingRelated`), and at the end of the walk the mirror prunes the photos the
/// snapshot no longer holds, except the ones the user marked (`RemoteCollection.retaining`). A
/// photo fetched again keeps its first-fetched time and its mark (`RemoteCollection.keeping`). The
/// collection is read-only: it has no create, update or delete requests.
///
/// The client's pipeline checks Flickr's `"stat": "fail"` with its failure detector and redacts
/// the key from what the server says. Two fetches at once share one run of the mirror.
final class RecentPhotosFetcher: Sendable {
    /// Photos per page.
    static let perPage = 125
    /// Pages in the snapshot: the newest `pages × perPage` photos (250) are "recent".
    static let pages = 2

    /// What the run in progress has read so far.
    private struct Tally: Sendable {
        var bytes = 0
        var received = 0
        var skipped: [FetchReport.Skipped] = []
        var usable = Set<String>()
        var new = Set<String>()
    }

    private let client: FetchClient
    private let store: ObjectStore
    private let keyHint: String
    private let progress: (@Sendable (String) -> Void)?
    private let tally = Protected(Tally())
    private let mirror: SyncedCollection<Photo>

    /// Creates the fetcher.
    ///
    /// - Parameters:
    ///   - source: where the photos come from (its search, page by page).
    ///   - client: its configuration builds the request (timeout, the key adapter), detects
    ///     Flickr's failures and redacts the key.
    ///   - store: where photos go.
    ///   - progress: told about each step, or nil for quiet.
    init(source: PhotoSource, client: FetchClient, store: ObjectStore, progress: (@Sendable (String) -> Void)?) throws {
        self.client = client
        self.store = store
        self.keyHint = source.keyHint
        self.progress = progress
        let tally = self.tally
        var collection = RemoteCollection<Photo>(
            "recent-photos",
            changes: .snapshot(
                request: { cursor in
                    guard case .page(let number) = cursor else { return source.recentPhotos(page: 1) }
                    return source.recentPhotos(page: number)
                },
                page: .custom { data, _ in try Self.page(data, tally: tally) }))
        collection.keeping = [.keep(Photo.firstFetchedField), .keep(Photo.marked)]
        collection.retaining = Photo.marked == true
        mirror = try SyncedCollection(collection, store: store, client: client)
    }

    /// Runs one fetch.
    ///
    /// - Returns: what it came to.
    /// - Throws: `FetchError` (the request or the transfer failed), ``FlickrError`` (Flickr
    ///   refused, the answer is unreadable, the store failed), or `CancellationError`.
    func fetch() async throws -> FetchReport {
        tally.withLock { $0 = Tally() }
        let run: SyncReport
        do {
            run = try await mirror.sync()
        } catch {
            throw flickrError(error)
        }
        let read = tally.withLock { $0 }
        var report = FetchReport()
        report.bytes = read.bytes
        report.received = read.received
        report.skipped = read.skipped
        progress?("downloaded \(mirror.remote.name): \(Self.size(read.bytes))")
        progress?(receivedLine(report))
        report.new = read.new.count
        report.updated = read.usable.count - read.new.count
        report.removed = run.recordsDeleted
        do {
            (report.stored, report.marked) = try await store.context.persist { tx in
                // Photographers and places no photo refers to any more go with the photos.
                _ = try tx.delete(Query<Photographer>(where: Photographer.photos.isEmpty))
                _ = try tx.delete(Query<Place>(where: Place.photos.isEmpty))
                return (try tx.count(Query<Photo>()), try tx.count(Query<Photo>(where: Photo.marked == true)))
            }
        } catch {
            throw FlickrError(
                kind: .store, description: ExampleFailure.store("cannot store the photos", error).description)
        }
        return report
    }

    /// Lets the request in progress finish its attempt and starts no other: after a Ctrl-C,
    /// a slow or failing server ends the run instead of being retried.
    func stopRetrying() {
        client.stopRetrying()
    }

    // MARK: Pages

    /// Reads one page: decodes `photos.photo`, leaving out (and counting) photos that do not
    /// decode or have no usable location; the photographers and places they name are stored
    /// with the page, and the photos the store did not hold yet are counted as new.
    private static func page(_ data: Data, tally: Protected<Tally>) throws -> ChangePage<Photo> {
        let decoded: LossyArray<FlickrPhoto>
        let report: DecodingReport
        let position: PagePosition
        do {
            (decoded, report) = try PathDecoder().decodeWithReport(
                LossyArray<FlickrPhoto>.self, from: data, at: "photos.photo")
            position = try PathDecoder().decode(PagePosition.self, from: data, at: "photos")
        } catch {
            throw FlickrError(
                kind: .unreadableResponse, description: "Flickr's answer has no readable photo list: \(error)")
        }
        let now = Date()
        var skipped = report.entries(.skippedElement).map { FetchReport.Skipped(id: nil, reason: $0.description) }
        var stored: [StoredPhoto] = []
        var seen = Set<String>()
        for photo in decoded.wrappedValue where seen.insert(photo.id).inserted {
            switch photo.stored(fetchedAt: now) {
            case .success(let entry): stored.append(entry)
            case .failure(let unusable): skipped.append(FetchReport.Skipped(id: photo.id, reason: unusable.description))
            }
        }
        let received = decoded.wrappedValue.count + report.entries(.skippedElement).count
        tally.withLock { tally in
            tally.bytes += data.count
            tally.received += received
            tally.skipped += skipped
            tally.usable.formUnion(stored.map(\.photo.id))
        }
        let ids = stored.map(\.photo.id)
        let entries = stored
        return ChangePage(
            records: stored.map(\.photo), hasMore: position.page < min(position.pages, pages),
            storingRelated: { tx in
                // Set before the page commits, so it is true on either side of the commit.
                Interrupts.keep(
                    "the store holds what it held before, with any page of this fetch already stored whole; "
                        + "the next fetch walks the recent photos again")
                let known = Set(try tx.fetch(Query<Photo>(where: Photo.idField.isIn(ids))).map(\.id))
                for entry in entries {
                    try tx.upsert(entry.photographer)
                    guard var place = entry.place else { continue }
                    // A photo sent without the place's Where On Earth id keeps the one stored.
                    if place.woeid == nil { place.woeid = try tx.fetch(Place.self, id: place.id)?.woeid }
                    try tx.upsert(place)
                }
                tally.withLock { $0.new.formUnion(ids.filter { !known.contains($0) }) }
            })
    }

    /// Where a page sits in the search: Flickr sends the numbers as numbers or as strings.
    private struct PagePosition: Decodable {
        @LosslessValue var page: Int
        @LosslessValue var pages: Int
    }

    /// The failure of a run as the program reports it: what Flickr or the transfer said, a
    /// ``FlickrError`` for an unreadable answer or a store that failed.
    private func flickrError(_ error: SyncError) -> any Error {
        if let fetchError = error.fetchError {
            if fetchError.code == .apiFailure, let failure = fetchError.reportedFailure {
                return FlickrError.apiFailure(failure, keyHint: keyHint)
            }
            if fetchError.code == .cancelled { return CancellationError() }
            return fetchError
        }
        switch error.code {
        case .undecodablePage:
            // The message names the page and carries the reader's own words.
            return FlickrError(kind: .unreadableResponse, description: error.message)
        case .storeFailed:
            let description = error.persistenceError.map {
                ExampleFailure.store("cannot store the photos", $0).description
            }
            return FlickrError(kind: .store, description: description ?? error.message)
        default:
            return error
        }
    }

    // MARK: Text

    private static func size(_ bytes: Int) -> String {
        bytes < 10_000 ? "\(bytes) bytes" : "\(bytes / 1000) kB"
    }

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
}
