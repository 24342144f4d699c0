import ExampleSupport
import Foundation
import Persistence
import TestSupport
import Testing

/// The flickr example end to end: the built program against its offline server, with a
/// temporary store opened afterwards with Persistence.
@Suite struct FlickrTests {
    // MARK: fetch

    @Test func fetchingTwiceStoresEachPhotoOnceAndTheSecondRunFindsNothingNew() async throws {
        let sandbox = try ExampleSandbox.flickr()
        defer { sandbox.directory.remove() }
        let expected = try FlickrOracle.usableIDs(tick: 5)
        #expect(expected.count > 200 && expected.count < 250)

        let first = try await sandbox.run(["fetch"])
        #expect(first.status == 0, "\(first)")
        #expect(first.output.contains(": \(expected.count) new, 0 already stored"), "\(first)")
        #expect(first.output.contains("skipped \(250 - expected.count) without a usable location"), "\(first)")
        #expect(first.output.contains("downloaded recent-photos: "), "\(first)")
        #expect(first.output.contains("received 250 photos; "), "\(first)")

        let second = try await sandbox.run(["fetch"])
        #expect(second.status == 0, "\(second)")
        #expect(second.output.contains(": 0 new, \(expected.count) already stored"), "\(second)")

        let stored = try sandbox.storedPhotos()
        #expect(stored.count == expected.count)
        #expect(Set(stored.map(\.id)) == expected)
    }

    @Test func withoutStoreTheStoreIsCreatedUnderTheDataHome() async throws {
        let sandbox = try ExampleSandbox.flickr()
        defer { sandbox.directory.remove() }
        let run = try await ProgramRun.run("flickr", ["fetch"], environment: sandbox.environment(tick: 5))
        #expect(run.status == 0, "\(run)")
        let store = sandbox.directory.file("data/flickr/flickr.sqlite")
        #expect(FileManager.default.fileExists(atPath: store.path))
        #expect(!FileManager.default.fileExists(atPath: sandbox.storePath))
    }

    @Test func aLaterFetchAddsThePhotosTheStreamMovedOnToAndRemovesTheOnesNoLongerRecent() async throws {
        let sandbox = try ExampleSandbox.flickr()
        defer { sandbox.directory.remove() }
        let before = try FlickrOracle.usableIDs(tick: 5)
        let after = try FlickrOracle.usableIDs(tick: 6)
        let added = after.subtracting(before)
        let gone = before.subtracting(after)
        #expect(!added.isEmpty && !gone.isEmpty)

        #expect(try await sandbox.run(["fetch"], tick: 5).status == 0)
        let later = try await sandbox.run(["fetch"], tick: 6)
        #expect(later.status == 0, "\(later)")
        #expect(
            later.output.contains(
                ": \(added.count) new, \(after.count - added.count) already stored, \(gone.count) removed (no longer recent)"
            ),
            "\(later)")
        #expect(later.output.contains("; the store holds \(after.count) photos\n"), "\(later)")

        let stored = try sandbox.storedPhotos()
        #expect(Set(stored.map(\.id)) == after)
        // Photos seen by both fetches keep the time they were first stored; the others were seen once.
        let seenTwice = before.intersection(after)
        #expect(stored.filter { seenTwice.contains($0.id) }.allSatisfy { $0.firstFetched < $0.lastFetched })
        #expect(stored.filter { !seenTwice.contains($0.id) }.allSatisfy { $0.firstFetched == $0.lastFetched })
        // Nobody's photos are left, so nor is anybody who took only photos that went.
        let owners = Set(stored.map(\.ownerID))
        #expect(Set(try sandbox.storedPhotographers().keys) == owners)
    }

    @Test func aMarkedPhotoStaysAfterItLeavesTheRecentPhotosUntilItIsUnmarked() async throws {
        let sandbox = try ExampleSandbox.flickr()
        defer { sandbox.directory.remove() }
        let before = try FlickrOracle.usableIDs(tick: 5)
        let later = try FlickrOracle.usableIDs(tick: 40)
        #expect(before.isDisjoint(with: later))
        let kept = try #require(before.sorted().first)

        #expect(try await sandbox.run(["fetch"], tick: 5).status == 0)
        let mark = try await sandbox.run(["mark", kept], tick: 5)
        #expect(mark.status == 0, "\(mark)")
        #expect(mark.output.contains("marked 1 photo (\(kept))"), "\(mark)")

        let fetch = try await sandbox.run(["fetch"], tick: 40)
        #expect(fetch.status == 0, "\(fetch)")
        #expect(fetch.output.contains("\(before.count - 1) removed (no longer recent)"), "\(fetch)")
        #expect(fetch.output.contains("the store holds \(later.count + 1) photos (1 marked)"), "\(fetch)")
        var stored = try sandbox.storedPhotos()
        #expect(Set(stored.map(\.id)) == later.union([kept]))
        #expect(stored.filter(\.marked).map(\.id) == [kept])
        // Its photographer stays with it.
        let owner = try #require(stored.first { $0.id == kept }?.ownerID)
        #expect(try sandbox.storedPhotographers()[owner] != nil)

        let list = try await sandbox.run(["list"], tick: 40)
        #expect(list.output.split(separator: "\n").filter { $0.hasSuffix("[marked]") }.count == 1, "\(list)")
        #expect(list.output.contains("  \(kept)  "), "\(list)")

        let unmark = try await sandbox.run(["unmark", kept], tick: 40)
        #expect(unmark.status == 0, "\(unmark)")
        #expect(try await sandbox.run(["fetch"], tick: 40).status == 0)
        stored = try sandbox.storedPhotos()
        #expect(Set(stored.map(\.id)) == later)
    }

    @Test func markingAPhotoTheStoreDoesNotHoldFailsAndMarksNothing() async throws {
        let sandbox = try ExampleSandbox.flickr()
        defer { sandbox.directory.remove() }
        let ids = try FlickrOracle.usableIDs(tick: 5).sorted()
        #expect(try await sandbox.run(["fetch"], tick: 5).status == 0)

        let run = try await sandbox.run(["mark", ids[0], "123"], tick: 5)
        #expect(run.status == 1, "\(run)")
        #expect(run.errorOutput.contains("no stored photo has the id '123'; nothing was marked"), "\(run)")
        #expect(try sandbox.storedPhotos().allSatisfy { !$0.marked })

        let missing = try await sandbox.run(["mark"], tick: 5)
        #expect(missing.status == 2, "\(missing)")
        #expect(missing.errorOutput.contains("missing photo id"), "\(missing)")
    }

    @Test func coordinatesSentAsStringsOrNumbersAreStoredAsNumbers() async throws {
        let sandbox = try ExampleSandbox.flickr()
        defer { sandbox.directory.remove() }
        #expect(try await sandbox.run(["fetch"]).status == 0)
        let stored = Dictionary(uniqueKeysWithValues: try sandbox.storedPhotos().map { ($0.id, $0) })
        let names = try sandbox.storedPhotographers()
        let sent = try FlickrOracle.photos(tick: 5)
        let asString = try #require(sent.first { $0["latitude"] is String && ($0["latitude"] as? String) != "0" })
        let asNumber = try #require(
            sent.first { !($0["latitude"] is String) && FlickrOracle.coordinate($0["latitude"]) != 0 })
        for photo in [asString, asNumber] {
            let id = try #require(photo["id"] as? String)
            let row = try #require(stored[id])
            #expect(row.latitude == FlickrOracle.coordinate(photo["latitude"]))
            #expect(row.longitude == FlickrOracle.coordinate(photo["longitude"]))
            #expect(names[row.ownerID] == photo["ownername"] as? String)
            #expect(row.placeID == photo["place_id"] as? String)
            #expect(row.uploaded != nil)
        }
    }

    // MARK: watch

    @Test func watchWithRunsStopsAfterThatManyRunsWithEverythingCommitted() async throws {
        let sandbox = try ExampleSandbox.flickr()
        defer { sandbox.directory.remove() }
        let run = try await sandbox.run(["watch", "--interval", "200ms", "--runs", "3"])
        #expect(run.status == 0, "\(run)")
        let expected = try FlickrOracle.usableIDs(tick: 5)
        let results = run.output.split(separator: "\n").filter { $0.hasPrefix("run ") && !$0.hasSuffix("fetching…") }
        #expect(results.count == 3, "\(run)")
        #expect(!run.output.contains("run 4"), "no fourth run begins: \(run)")
        #expect(results.first?.hasPrefix("run 1: \(expected.count) new, 0 already stored") == true, "\(run)")
        #expect(results.dropFirst().allSatisfy { $0.contains(": 0 new, \(expected.count) already stored") }, "\(run)")
        #expect(run.output.contains("watch stopped after 3 runs"), "\(run)")
        #expect(Set(try sandbox.storedPhotos().map(\.id)) == expected)
    }

    @Test func watchReportsTicksSkippedWhileAFetchWasStillRunning() async throws {
        let sandbox = try ExampleSandbox.flickr()
        defer { sandbox.directory.remove() }
        // Each fetch waits at least 400ms for the server, so 50ms ticks must pass during it.
        let run = try await sandbox.run(
            ["watch", "--interval", "50ms", "--runs", "2"], environment: ["FLICKR_OFFLINE_LATENCY": "400ms"])
        #expect(run.status == 0, "\(run)")
        let second = try #require(run.output.split(separator: "\n").last { $0.hasPrefix("run 2: ") })
        #expect(second.contains("skipped while the previous fetch ran"), "\(run)")
        let summary = try #require(
            run.output.split(separator: "\n").last { $0.hasPrefix("watch stopped after 2 runs") })
        let skipped = summary.split(separator: ", ").first { $0.hasSuffix("skipped while a fetch ran") }
        let ticks = try #require(skipped.flatMap { Int($0.prefix { $0.isNumber }) }, "\(run)")
        #expect(ticks > 0, "\(run)")
    }

    @Test func ctrlCAfterARunStopsTheWatchCleanlyWithItsPhotosCommitted() async throws {
        let sandbox = try ExampleSandbox.flickr()
        defer { sandbox.directory.remove() }
        let watch = try InterruptibleRun(
            "flickr", ["watch", "--interval", "300ms", "--store", sandbox.storePath],
            environment: sandbox.environment(tick: 5))
        let ranOnce = await watch.waitForOutput(containing: " already stored", timeout: Patience.hang)
        watch.interrupt()
        let end = await watch.finish(timeout: Patience.hang)
        #expect(ranOnce, "\(end.output)")
        #expect(end.status == 130 && !end.signalled, "\(end.output)\n\(end.errorOutput)")
        #expect(end.errorOutput.hasPrefix("flickr: interrupted; watch stopped after"), "\(end.errorOutput)")
        #expect(end.errorOutput.split(separator: "\n").count == 1, "\(end.errorOutput)")
        #expect(Set(try sandbox.storedPhotos().map(\.id)) == (try FlickrOracle.usableIDs(tick: 5)))
    }

    @Test func ctrlCDuringAFetchLetsItFinishAndCommitBeforeStopping() async throws {
        let sandbox = try ExampleSandbox.flickr()
        defer { sandbox.directory.remove() }
        // The server holds its answer until the gate file exists, so the fetch is surely in
        // progress when Ctrl-C comes, and ends only after the watch has said it will wait.
        let gate = sandbox.directory.file("release-answer")
        let watch = try InterruptibleRun(
            "flickr", ["watch", "--interval", "1h", "--store", sandbox.storePath],
            environment: sandbox.environment(tick: 5, extra: ["FLICKR_OFFLINE_HOLD": gate.path]))
        // Both steps run on the thread that reads the program's output, so they follow the
        // program at once however busy the test process is.
        watch.when(output: "interrupted: stopping after the fetch in progress") {
            _ = FileManager.default.createFile(atPath: gate.path, contents: Data())
        }
        watch.when(output: "run 1: fetching") { watch.interrupt() }
        let fetching = await watch.waitForOutput(containing: "run 1: fetching", timeout: Patience.hang)
        let waiting = await watch.waitForOutput(
            containing: "interrupted: stopping after the fetch in progress", timeout: Patience.hang)
        let end = await watch.finish(timeout: Patience.hang)
        #expect(fetching && waiting, "\(end.output)")
        #expect(end.status == 130 && !end.signalled, "\(end.output)\n\(end.errorOutput)")
        let lines = end.output.split(separator: "\n").map(String.init)
        let expected = try FlickrOracle.usableIDs(tick: 5)
        let interrupted = try #require(lines.firstIndex { $0.hasPrefix("interrupted") })
        let result = try #require(lines.firstIndex { $0.hasPrefix("run 1: \(expected.count) new") }, "\(end.output)")
        #expect(interrupted < result)
        #expect(end.errorOutput.hasPrefix("flickr: interrupted; watch stopped after 1 run: "), "\(end.errorOutput)")
        #expect(Set(try sandbox.storedPhotos().map(\.id)) == expected)
    }

    @Test func ctrlCWhileTheServerIsDownLetsTheAttemptEndAndStartsNoRetry() async throws {
        let sandbox = try ExampleSandbox.flickr()
        defer { sandbox.directory.remove() }
        // The server answers 503 with `Retry-After: 30`: a fetch would wait 30 s and try again,
        // twice. The answer is held until the watch has said it stops after this fetch.
        let gate = sandbox.directory.file("release-answer")
        let watch = try InterruptibleRun(
            "flickr", ["watch", "--interval", "1h", "--store", sandbox.storePath],
            environment: sandbox.environment(
                tick: 5, extra: ["FLICKR_OFFLINE_HOLD": gate.path, "FLICKR_OFFLINE_DOWN": "1"]))
        watch.when(output: "interrupted: stopping after the fetch in progress") {
            _ = FileManager.default.createFile(atPath: gate.path, contents: Data())
        }
        watch.when(output: "run 1: fetching") { watch.interrupt() }
        let end = await watch.finish(timeout: Patience.hang)
        let lines = end.output.split(separator: "\n").map(String.init)
        #expect(end.status == 130 && !end.signalled, "\(end.output)\n\(end.errorOutput)")
        // The attempt in flight ended with its 503 and the run failed with it, at once: no
        // retry waited out its 30 seconds (a retry would leave the held answer long released,
        // and the run's failure would come after it).
        let interrupted = try #require(
            lines.firstIndex { $0.hasPrefix("interrupted: stopping after") }, "\(end.output)")
        let failed = try #require(lines.firstIndex { $0.hasPrefix("run 1 failed:") }, "\(end.output)")
        #expect(interrupted < failed)
        #expect(lines[failed].contains("503"), "\(end.output)")
        #expect(!lines.contains { $0.contains("run 2") }, "\(end.output)")
        #expect(end.errorOutput.hasPrefix("flickr: interrupted; watch stopped after 1 run"), "\(end.errorOutput)")
        #expect(try sandbox.storedPhotos().isEmpty)
    }

    // MARK: list

    @Test func listGroupsByPhotographerAndByPlaceWithCounts() async throws {
        let sandbox = try ExampleSandbox.flickr()
        defer { sandbox.directory.remove() }
        #expect(try await sandbox.run(["fetch"]).status == 0)
        let stored = try sandbox.storedPhotos()
        let names = try sandbox.storedPhotographers()

        let byPhotographer = try await sandbox.run(["list", "--by", "photographer"])
        #expect(byPhotographer.status == 0, "\(byPhotographer)")
        let owners = Dictionary(grouping: stored, by: \.ownerID)
        #expect(byPhotographer.output.hasPrefix("\(stored.count) photos by \(owners.count) photographers:"))
        // Counts are padded to line up, so compare lines with their spaces collapsed.
        let collapsed = byPhotographer.output.split(separator: "\n").map {
            $0.split(separator: " ").joined(separator: " ")
        }
        for (owner, photos) in owners {
            let name = try #require(names[owner])
            let count = "\(photos.count) photo\(photos.count == 1 ? "" : "s")"
            #expect(collapsed.contains("\(count) \(name) (\(owner))"), "\(byPhotographer)")
        }

        let byPlace = try await sandbox.run(["list", "--by", "place"])
        #expect(byPlace.status == 0, "\(byPlace)")
        let places = Dictionary(grouping: stored, by: { $0.placeID ?? "" })
        #expect(byPlace.output.hasPrefix("\(stored.count) photos in \(places.count) places:"))
        let counts = byPlace.output.split(separator: "\n").dropFirst().compactMap { line in
            Int(line.trimmingCharacters(in: .whitespaces).prefix { $0.isNumber })
        }
        #expect(counts.sorted() == places.values.map(\.count).sorted())
        #expect(counts == counts.sorted(by: >))

        let plain = try await sandbox.run(["list"])
        #expect(plain.status == 0, "\(plain)")
        #expect(plain.output.split(separator: "\n").count == stored.count + 1)
    }

    @Test func listingAnEmptyStoreSaysSo() async throws {
        let sandbox = try ExampleSandbox.flickr()
        defer { sandbox.directory.remove() }
        let run = try await sandbox.run(["list", "--by", "place"])
        #expect(run.status == 0, "\(run)")
        #expect(run.output.contains("no photos stored yet"))
    }

    // MARK: Errors

    @Test func anUnknownCommandIsAWrongCall() async throws {
        let sandbox = try ExampleSandbox.flickr()
        defer { sandbox.directory.remove() }
        let run = try await sandbox.run(["upload"])
        #expect(run.status == 2)
        #expect(run.errorOutput.contains("unknown command 'upload'"))
        #expect(run.errorOutput.contains("usage: flickr"))
    }

    @Test func liveWithoutAKeyFailsAtOnceNamingTheVariable() async throws {
        let sandbox = try ExampleSandbox.flickr()
        defer { sandbox.directory.remove() }
        let run = try await sandbox.run(["fetch", "--live"])
        #expect(run.status == 1)
        #expect(run.errorOutput.split(separator: "\n").count == 1)
        #expect(run.errorOutput.contains("FLICKR_API_KEY"))
        #expect(!FileManager.default.fileExists(atPath: sandbox.storePath))
    }

    @Test func anInvalidKeyGivesFlickrsStatFailMessageWithoutTheKey() async throws {
        let sandbox = try ExampleSandbox.flickr()
        defer { sandbox.directory.remove() }
        let key = "not-the-key-3f9a7c"
        let run = try await sandbox.run(["fetch"], environment: ["FLICKR_OFFLINE_KEY": key])
        #expect(run.status == 1)
        #expect(run.errorOutput.split(separator: "\n").count == 1)
        #expect(run.errorOutput.contains("stat: fail, code 100: Invalid API Key"), "\(run)")
        #expect(!run.output.contains(key) && !run.errorOutput.contains(key))
        #expect(try sandbox.storedPhotos().isEmpty)
    }

    @Test func watchStopsOnAnInvalidKeyInsteadOfRetryingForever() async throws {
        let sandbox = try ExampleSandbox.flickr()
        defer { sandbox.directory.remove() }
        let run = try await sandbox.run(
            ["watch", "--interval", "100ms", "--runs", "5"], environment: ["FLICKR_OFFLINE_KEY": "wrong"])
        #expect(run.status == 1)
        #expect(run.output.contains("run 1 failed"))
        #expect(!run.output.contains("run 2"))
        #expect(run.errorOutput.contains("code 100"))
    }

    @Test(arguments: ["5", "0s", "-1m", "fast", "1d", "ms"])
    func aBadIntervalIsAWrongCall(interval: String) async throws {
        let sandbox = try ExampleSandbox.flickr()
        defer { sandbox.directory.remove() }
        let run = try await sandbox.run(["watch", "--interval=\(interval)", "--runs", "1"])
        #expect(run.status == 2, "\(run)")
        #expect(
            run.errorOutput.hasPrefix(
                "flickr: --interval needs a duration from 1ms to a year, not '\(interval)'; "
                    + "write a number and a unit, such as 500ms, 30s, 5m or 1h\nusage: flickr "), "\(run)")
    }

    @Test func aStoreInAMissingFolderCannotBeOpened() async throws {
        let sandbox = try ExampleSandbox.flickr()
        defer { sandbox.directory.remove() }
        let path = sandbox.directory.file("missing/flickr.sqlite").path
        let run = try await ProgramRun.run(
            "flickr", ["fetch", "--store", path], environment: sandbox.environment(tick: 5))
        #expect(run.status == 1)
        #expect(run.errorOutput.split(separator: "\n").count == 1)
        #expect(run.errorOutput.contains("cannot open the store at \(path)"))
    }

    @Test func aFileThatIsNotADatabaseCannotBeOpened() async throws {
        let sandbox = try ExampleSandbox.flickr()
        defer { sandbox.directory.remove() }
        try Data(String(repeating: "not a database ", count: 100).utf8).write(
            to: URL(fileURLWithPath: sandbox.storePath))
        let run = try await sandbox.run(["list"])
        #expect(run.status == 1)
        #expect(run.errorOutput.contains("cannot open the store"))
        #expect(run.errorOutput.contains("not a SQLite database"))
        // One error style for the three programs: no Swift type names.
        #expect(!run.errorOutput.contains("PersistenceError"), "\(run)")
        #expect(run.errorOutput.hasPrefix("flickr: cannot open the store at ") && run.errorOutput.contains("; "))
    }

    @Test func mapWithoutAnOutputFileIsAWrongCall() async throws {
        let sandbox = try ExampleSandbox.flickr()
        defer { sandbox.directory.remove() }
        let run = try await sandbox.run(["map"])
        #expect(run.status == 2)
        #expect(run.errorOutput.hasPrefix("flickr: map needs a file to write; give it with --out <file.svg>\n"))
    }

    @Test func helpDescribesTheCommandsAndTheOfflineStream() async throws {
        let run = try await ProgramRun.run("flickr", ["--help"])
        #expect(run.status == 0)
        for text in ["flickr fetch", "flickr watch", "--by photographer|place", "map --out", "FLICKR_OFFLINE_TICK"] {
            #expect(run.output.contains(text), "\(text)")
        }
    }
}
