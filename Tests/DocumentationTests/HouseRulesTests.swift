import Foundation
import Testing

/// The house rules a newcomer's first reading depends on: the Swift version the README and the
/// guide ask for is the manifest's tools version, one renderer writes every filter, no library
/// file outgrows 450 lines, Sync's folders follow its concerns (and only its outbox touches the
/// outbox's table), and the libraries' doc comments speak of no "seed" apps.
@Suite struct HouseRulesTests {
    /// The library products' folders.
    static let libraries = ["FetchKit", "Persistence", "Decoding", "Sync", "FetchKitTesting", "FetchKitOperations"]

    /// The Swift files under `folder` (relative to the repository's root).
    static func swiftFiles(under folder: String) throws -> [URL] {
        let url = Repository.root.appendingPathComponent(folder)
        return try #require(FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
    }

    /// The manifest's tools version, such as `6.2`.
    static func toolsVersion() throws -> String {
        let manifest = try Repository.text("Package.swift")
        let first = try #require(manifest.split(separator: "\n").first)
        let marker = "swift-tools-version:"
        let range = try #require(first.range(of: marker))
        return first[range.upperBound...].trimmingCharacters(in: .whitespaces)
    }

    @Test func theReadmeAndTheGuideAskForTheManifestsSwiftVersion() throws {
        let version = try Self.toolsVersion()
        #expect(version.hasPrefix("6."), "read the tools version \(version)")
        let readme = try Repository.text("README.md")
        let guide = try Repository.text("Docs/GettingStarted.md")
        #expect(
            readme.contains("- Swift \(version) or later"), "the README's requirements do not ask for Swift \(version)")
        #expect(
            guide.contains("You need Swift \(version) or later"),
            "Docs/GettingStarted.md does not ask for Swift \(version)")
        for (name, text) in [("README.md", readme), ("Docs/GettingStarted.md", guide)] {
            let stated = text.ranges(of: /Swift (6\.\d+) or later/).map { String(text[$0]) }
            #expect(
                stated.allSatisfy { $0 == "Swift \(version) or later" },
                "\(name) states \(stated), the manifest's tools version is \(version)")
        }
    }

    @Test func oneRendererWritesEveryFilter() throws {
        // `WHERE` and `HAVING` conditions both go through `QuerySQL.render`: a second renderer of
        // AND, OR and NOT would be a second place to change.
        let files = try Self.swiftFiles(under: "Sources/Persistence")
        var renderers: [String] = []
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            let count = text.components(separatedBy: "sql += \"NOT (\"").count - 1
            renderers += Array(repeating: file.lastPathComponent, count: count)
        }
        #expect(renderers.count == 1, "filters are rendered in \(renderers)")
    }

    /// No file of a library module outgrows 450 lines: a longer one holds more than one concern.
    @Test func noLibraryFileIsOver450Lines() throws {
        var long: [String] = []
        for module in Self.libraries + ["Locking"] {
            let files = try Self.swiftFiles(under: "Sources/\(module)")
            #expect(!files.isEmpty, "Sources/\(module) has no Swift files")
            for file in files {
                let lines = try String(contentsOf: file, encoding: .utf8).split(
                    separator: "\n", omittingEmptySubsequences: false)
                if lines.count > 451 { long.append("\(module)/\(file.lastPathComponent): \(lines.count - 1) lines") }
            }
        }
        #expect(long.isEmpty, "split by concern: \(long)")
    }

    @Test func syncIsInFoldersByConcernAndOnlyTheOutboxReadsItsTable() throws {
        let root = Repository.root.appendingPathComponent("Sources/Sync")
        let files = try Self.swiftFiles(under: "Sources/Sync")
        #expect(files.count > 40, "found \(files.count) files")
        let concerns: Set = [
            "Accounts", "Collection", "Conflicts", "Description", "Engine", "Files", "Outbox", "Pull", "Push", "Support",
        ]
        for file in files {
            let path = file.path.replacingOccurrences(of: root.path + "/", with: "")
            let folder = path.split(separator: "/").first.map(String.init) ?? ""
            #expect(concerns.contains(folder), "\(path) is outside the folders by concern (\(concerns.sorted()))")
            let text = try String(contentsOf: file, encoding: .utf8)
            // The outbox's table is read and written by the outbox alone.
            if folder != "Outbox" {
                #expect(!text.contains("Query<PendingWrite>("), "\(path) queries the outbox's table: ask Outbox")
                #expect(!text.contains("PendingWrite.collection =="), "\(path) filters the outbox's table: ask Outbox")
                #expect(!text.contains(".take(in:"), "\(path) stores a transition: ask Outbox")
            }
        }
    }

    @Test func syncHasOneRunLoopOneStartAndOneStatusRelay() throws {
        // A collection alone is a group of one: the runs, the triggers and the status relay are
        // written once, for both.
        let sources = try Self.swiftFiles(under: "Sources/Sync").map { try String(contentsOf: $0, encoding: .utf8) }
        for (what, marker) in [
            ("run loop", "func runOnce("), ("start", "engine.start("), ("status relay", "engine.follow"),
        ] {
            let count = sources.reduce(0) { $0 + $1.components(separatedBy: marker).count - 1 }
            #expect(
                count == 1, "Sync writes its \(what) \(count) times (`\(marker)`); a collection alone is a group of one"
            )
        }
    }

    @Test func theLibrariesDocCommentsSpeakOfNoSeedApps() throws {
        for library in Self.libraries {
            for file in try Self.swiftFiles(under: "Sources/\(library)") {
                let text = try String(contentsOf: file, encoding: .utf8)
                for line in text.split(separator: "\n") where line.trimmingCharacters(in: .whitespaces).hasPrefix("///")
                {
                    #expect(
                        line.range(of: "seed", options: .caseInsensitive) == nil,
                        "\(file.lastPathComponent): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
    }
}
