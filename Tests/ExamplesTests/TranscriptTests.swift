import Foundation
import TestSupport
import Testing

/// The terminal transcripts in `Docs/Examples.md` are what the programs print: every
/// `console` block is replayed command by command, in a fresh folder, and compared.
///
/// A block is a session: `$ ` lines are commands (run with `sh -c`, the built programs first
/// on `PATH`, standard error merged into standard output), the lines after one are its
/// output, ending with `(exit status N)` when the status is not 0; `export NAME=value` sets a
/// variable for the rest of the block. A line holding only `…` (indented or not, or followed
/// by a note) stands for any number of lines. The offline servers' ports change from run to
/// run, and so does the time a book was added; a block right after
/// `<!-- transcript: numbers vary -->` is also compared with every number, and every trend
/// arrow up or down, read as the same (`mustc`'s offline popularity drifts at random).
@Suite struct TranscriptTests {
    struct Block: CustomStringConvertible, Sendable {
        let firstLine: Int
        let numbersVary: Bool
        let steps: [(command: String, output: [String])]

        var description: String { "Docs/Examples.md block at line \(firstLine)" }
    }

    static let examplesPage = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Docs/Examples.md")

    static func blocks() -> [Block] {
        guard let text = try? String(contentsOf: examplesPage, encoding: .utf8) else { return [] }
        let lines = text.components(separatedBy: "\n")
        var blocks: [Block] = []
        var index = 0
        while index < lines.count {
            guard lines[index] == "```console" else {
                index += 1
                continue
            }
            let numbersVary = index > 0 && lines[index - 1] == "<!-- transcript: numbers vary -->"
            let first = index + 1
            var steps: [(String, [String])] = []
            index += 1
            while index < lines.count, lines[index] != "```" {
                if lines[index].hasPrefix("$ ") {
                    steps.append((String(lines[index].dropFirst(2)), []))
                } else if !steps.isEmpty {
                    steps[steps.count - 1].1.append(lines[index])
                }
                index += 1
            }
            blocks.append(Block(firstLine: first, numbersVary: numbersVary, steps: steps))
            index += 1
        }
        return blocks
    }

    @Test func thePageHasTranscriptsForEveryProgram() throws {
        let commands = Self.blocks().flatMap { $0.steps.map(\.command) }
        for program in ["booklab", "mustc", "flickr"] {
            #expect(commands.filter { $0.contains("\(program) ") }.count >= 5, "\(program)")
        }
    }

    @Test(arguments: blocks())
    func theTranscriptMatchesWhatTheProgramsPrint(_ block: Block) async throws {
        let folder = try TemporaryDirectory(prefix: "TranscriptTests")
        defer { folder.remove() }
        let products = try BuiltProducts.executable(named: "booklab").deletingLastPathComponent().path
        var environment = [
            "PATH": "\(products):/usr/bin:/bin", "HOME": folder.file("home").path,
            "XDG_DATA_HOME": folder.file("data").path, "LANG": "C.UTF-8", "TZ": "UTC",
        ]
        // Programs built with a sanitizer read its options from the environment: a run under
        // `Scripts/sanitize.sh` gives its children the same (no leak report of libcurl's caches).
        for name in ["ASAN_OPTIONS", "TSAN_OPTIONS", "SWIFT_BACKTRACE"] {
            environment[name] = ProcessInfo.processInfo.environment[name]
        }
        for (command, expected) in block.steps {
            if command.hasPrefix("export "), let equals = command.firstIndex(of: "=") {
                let name = command.dropFirst("export ".count)[..<equals]
                environment[String(name)] = String(command[command.index(after: equals)...])
                continue
            }
            let run = try await Self.shell(command, in: folder.url, environment: environment)
            var actual = run.output.components(separatedBy: "\n")
            if actual.last == "" { actual.removeLast() }
            if run.status != 0 { actual.append("(exit status \(run.status))") }
            var wanted = expected
            while wanted.last == "" { wanted.removeLast() }
            // Whether a Ctrl-C after five seconds lands during `flickr watch`'s first fetch
            // depends on the machine (under a sanitizer the fetch takes longer): the program then
            // says so on a line of its own, which the page, written on a faster run, does not show.
            let duringFetch = "interrupted: stopping after the fetch in progress"
            if !wanted.contains(where: { $0.hasPrefix(duringFetch) }) {
                actual.removeAll { $0.hasPrefix(duringFetch) }
            }
            let matches = Self.matches(
                wanted.map { Self.normalized($0, block.numbersVary) },
                actual.map { Self.normalized($0, block.numbersVary) })
            #expect(
                matches,
                "\(block), $ \(command)\n--- the page says ---\n\(wanted.joined(separator: "\n"))\n--- the program printed ---\n\(actual.joined(separator: "\n"))"
            )
        }
    }

    /// A line as compared: the time a book was added varies; with `numbersVary`, so does every number.
    static func normalized(_ line: String, _ numbersVary: Bool) -> String {
        if line.hasPrefix("Added:       ") { return "Added:       <time>" }
        // How many of `flickr watch`'s ticks a fetch outlasts depends on the machine (a build
        // with a sanitizer fetches 250 photos slower than the 3-second interval of the page).
        let line = line.replacingOccurrences(
            of: #"127\.0\.0\.1:[0-9]+"#, with: "127.0.0.1:<port>", options: .regularExpression
        )
        .replacingOccurrences(
            of: #" \([0-9]+ ticks? skipped while the previous fetch ran\)"#, with: "", options: .regularExpression
        )
        .replacingOccurrences(
            of: #"[0-9]+ ticks? skipped while a fetch ran"#, with: "<n> ticks skipped while a fetch ran",
            options: .regularExpression)
        guard numbersVary else { return line }
        var result = ""
        var inNumber = false
        for character in line.replacingOccurrences(of: "↓", with: "↑") {
            if character.isASCII && character.isNumber {
                if !inNumber { result.append("#") }
                inNumber = true
            } else if inNumber && character == "." {
                continue
            } else {
                inNumber = false
                result.append(character)
            }
        }
        return result
    }

    /// Whether `actual` matches `expected`, where an expected `…` line matches any number of lines.
    static func matches(_ expected: [String], _ actual: [String]) -> Bool {
        guard let first = expected.first else { return actual.isEmpty }
        if first.trimmingCharacters(in: .whitespaces).hasPrefix("…") {
            let rest = Array(expected.dropFirst())
            return (0...actual.count).contains { matches(rest, Array(actual.dropFirst($0))) }
        }
        guard let line = actual.first, line == first else { return false }
        return matches(Array(expected.dropFirst()), Array(actual.dropFirst()))
    }

    /// Runs a command line with `sh -c`, standard error into standard output.
    static func shell(
        _ command: String, in folder: URL, environment: [String: String]
    ) async throws -> (status: Int32, output: String) {
        let process = try ChildProcess(
            executable: URL(fileURLWithPath: "/bin/sh"), ["-c", "exec 2>&1; " + command], environment: environment,
            directory: folder, standardOutput: .pipe, standardError: .standardOutput)
        let data = await Blocking.run { process.standardOutput?.readDataToEndOfFile() ?? Data() }
        let ending = await process.exit()
        return (ending?.status ?? -1, String(decoding: data, as: UTF8.self))
    }
}
