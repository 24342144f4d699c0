import ExampleSupport
import Foundation
import Persistence
import TestSupport
import Testing

/// `mustc`'s popularity history: samples kept per refresh, trends in `list`, and the chart.
@Suite struct MustCHistoryTests {
    @Test func listShowsWhichWayEachMovieMovedInTheLatestRefresh() async throws {
        let sandbox = try ExampleSandbox.mustC()
        defer { sandbox.remove() }
        // Values away from the offline catalogue's fixed ones (73.433, 32.7, 58.3).
        try sandbox.seed([
            Movie(title: "Fight Club", remoteID: 550, popularity: 50),
            Movie(title: "Amélie", remoteID: 194, popularity: 40),
            Movie(title: "Se7en", remoteID: 807, popularity: 58.3),
            Movie(title: "Unheard Of"),
        ])
        let before = try await sandbox.run(["list"])
        #expect(!before.output.contains("↑") && !before.output.contains("↓") && !before.output.contains("→"))

        #expect(try await sandbox.run(["refresh"]).status == 0)
        let list = try await sandbox.run(["list"])
        #expect(list.status == 0, "\(list)")
        #expect(list.lines.first == "4 movies, most popular first (↑ ↓ → since the previous refresh):", "\(list)")
        #expect(list.lines.contains("    73.433 ↑  Fight Club  (family, TMDB 550)"), "\(list)")
        #expect(list.lines.contains("    58.300 →  Se7en  (family, TMDB 807)"), "\(list)")
        #expect(list.lines.contains("    32.700 ↓  Amélie  (family, TMDB 194)"), "\(list)")
        #expect(list.lines.contains("         -    Unheard Of  (family, no TMDB match)"), "\(list)")

        // A refresh that changes nothing makes every arrow flat.
        #expect(try await sandbox.run(["refresh"]).status == 0)
        let again = try await sandbox.run(["list"])
        #expect(again.lines.filter { $0.contains(" →  ") }.count == 3, "\(again)")
    }

    @Test func eachRefreshThatChangesAMovieKeepsOneSampleAndTheHistoryIsBounded() async throws {
        let sandbox = try ExampleSandbox.mustC()
        defer { sandbox.remove() }
        #expect(try await sandbox.run(["add", "Fight Club"], popularity: "drift").status == 0)
        for _ in 0..<3 { #expect(try await sandbox.run(["refresh"], popularity: "drift").status == 0) }
        #expect(try await sandbox.run(["refresh"], popularity: "fixed").status == 0)
        #expect(try await sandbox.run(["refresh"], popularity: "fixed").status == 0)  // no change: no sample
        let (samples, refreshes) = try await history(sandbox)
        // The match, three drifted values and the return to the fixed one.
        #expect(samples.count == 5, "\(samples.map(\.popularity))")
        #expect(samples.last?.popularity == 73.433)
        #expect(samples.map(\.takenAt) == samples.map(\.takenAt).sorted())
        #expect(refreshes == 5)

        // Removing the movie removes its history.
        #expect(try await sandbox.run(["remove", "fight club"]).status == 0)
        #expect(try await history(sandbox).samples.isEmpty)
    }

    @Test func theHistoryKeepsTheLatestSamplesOnly() async throws {
        let sandbox = try ExampleSandbox.mustC()
        defer { sandbox.remove() }
        let movie = Movie(title: "Fight Club", remoteID: 550, popularity: 1)
        try sandbox.seed([movie])
        // A long history written by earlier runs: one more than the bound.
        let store = try ObjectStore(
            at: sandbox.store, entities: [Movie.self, PopularitySample.self, RefreshRecord.self])
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        try store.context.persistAndWait { tx in
            for index in 0..<PopularitySample.maximumPerMovie {
                try tx.insert(
                    PopularitySample(
                        movieID: movie.id, takenAt: start.addingTimeInterval(Double(index) * 3600),
                        popularity: Double(index + 1)))
            }
        }
        store.close()
        #expect(try await sandbox.run(["refresh"]).status == 0)
        let samples = try await history(sandbox).samples
        #expect(samples.count == PopularitySample.maximumPerMovie)
        #expect(samples.first?.popularity == 2, "the oldest sample goes first")
        #expect(samples.last?.popularity == 73.433)
    }

    @Test func theChartIsAnSVGWithOneLinePerMovieAxesAndALegend() async throws {
        let sandbox = try ExampleSandbox.mustC()
        defer { sandbox.remove() }
        for title in ["Fight Club", "Amélie", "Romeo + Juliet"] {
            #expect(try await sandbox.run(["add", title], popularity: "drift").status == 0)
        }
        #expect(try await sandbox.run(["add", "The Unmade Film"]).status == 0)
        for _ in 0..<3 { #expect(try await sandbox.run(["refresh"], popularity: "drift").status == 0) }
        let file = sandbox.directory.file("popularity.svg")
        let run = try await sandbox.run(["chart", "--out", file.path])
        #expect(run.status == 0, "\(run)")
        #expect(run.output == "Wrote \(file.path): 3 movies, 12 samples.\n", "\(run)")

        let svg = try SVGElement.read(contentsOf: file)
        #expect(svg.name == "svg")
        let drawn = try #require(svg.element(id: "lines"))
        let lines = drawn.all("polyline")
        #expect(lines.count == 3)
        for line in lines {
            let points = (line.attributes["points"] ?? "").split(separator: " ")
            #expect(points.count == 4, "the match and three refreshes")
        }
        #expect(drawn.all("circle").count == 12)
        let legend = svg.element(id: "legend")?.all("text").map(\.text) ?? []
        for title in ["Fight Club (family): ", "Amélie (family): ", "Romeo + Juliet (family): "] {
            #expect(legend.contains { $0.hasPrefix(title) }, "\(legend)")
        }
        #expect(!legend.contains { $0.contains("Unmade") }, "a movie without popularity has no line")
        let axes = svg.element(id: "axes")?.all("text").map(\.text) ?? []
        #expect(axes.contains("Time (UTC)") && axes.contains("TMDB popularity"), "\(axes)")
        #expect(axes.filter { $0.contains(":") }.count >= 2, "time ticks: \(axes)")
        #expect(axes.filter { Double($0) != nil }.count >= 3, "value ticks: \(axes)")
    }

    @Test func aChartWithoutHistorySaysHowToMakeOne() async throws {
        let sandbox = try ExampleSandbox.mustC()
        defer { sandbox.remove() }
        let file = sandbox.directory.file("empty.svg")
        let run = try await sandbox.run(["chart", "--out", file.path])
        #expect(run.status == 0, "\(run)")
        #expect(run.output.contains("no popularity history yet"), "\(run)")
        #expect(try SVGElement.read(contentsOf: file).name == "svg")
        let missing = try await sandbox.run(["chart"])
        #expect(missing.status == 2)
        #expect(missing.errorOutput.hasPrefix("mustc: chart needs a file to write; give it with --out <file.svg>\n"))
    }

    private func history(_ sandbox: ExampleSandbox) async throws -> (samples: [PopularitySample], refreshes: Int) {
        let url = sandbox.store
        return try await Blocking.run {
            Result {
                let store = try ObjectStore(at: url, entities: [Movie.self, PopularitySample.self, RefreshRecord.self])
                defer { store.close() }
                return try store.context.readAndWait { tx in
                    (
                        try tx.fetch(Query<PopularitySample>(sortedBy: [PopularitySample.takenAt.ascending()])),
                        try tx.count(Query<RefreshRecord>())
                    )
                }
            }
        }.get()
    }
}
