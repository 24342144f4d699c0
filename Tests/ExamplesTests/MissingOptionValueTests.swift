import Foundation
import TestSupport
import Testing

/// Every example: an option given without its value, last or before another option, is a
/// wrong call (one line naming the option, the usage line, status 2, nothing on standard output).
@Suite struct MissingOptionValueTests {
    /// A call, the program's sandbox, and the first line it must print on standard error.
    struct Call: Sendable, CustomStringConvertible {
        let program: String
        let arguments: [String]
        let option: String
        var fix = "<value>"
        var usesDefaultStore = false

        var description: String { "\(program) \(arguments.joined(separator: " "))" }
        var message: String { "\(program): \(option) needs a value; write \(option) \(fix)" }

        func sandbox() throws -> ExampleSandbox {
            switch program {
            case "mustc": try ExampleSandbox.mustC()
            case "booklab": try ExampleSandbox.bookLab()
            default: try ExampleSandbox.flickr()
            }
        }
    }

    static let calls: [Call] = [
        Call(program: "mustc", arguments: ["list", "--member"], option: "--member"),
        Call(program: "mustc", arguments: ["list", "--member", "--live"], option: "--member"),
        Call(program: "mustc", arguments: ["list", "--member", "--by-member"], option: "--member"),
        Call(program: "mustc", arguments: ["add", "Heat", "--member"], option: "--member"),
        Call(program: "mustc", arguments: ["add", "Heat", "--year"], option: "--year"),
        Call(program: "mustc", arguments: ["refresh", "--concurrency", "--operations"], option: "--concurrency"),
        Call(program: "mustc", arguments: ["remove", "Heat", "--member"], option: "--member"),
        Call(program: "mustc", arguments: ["chart", "--out"], option: "--out"),
        Call(program: "mustc", arguments: ["list", "--store"], option: "--store", usesDefaultStore: true),
        Call(program: "booklab", arguments: ["list", "--find"], option: "--find", fix: "<words>"),
        Call(program: "booklab", arguments: ["list", "--find", "--live"], option: "--find", fix: "<words>"),
        Call(program: "booklab", arguments: ["list", "--author"], option: "--author"),
        Call(program: "booklab", arguments: ["add", "--isbn"], option: "--isbn"),
        Call(program: "booklab", arguments: ["list", "--store"], option: "--store", usesDefaultStore: true),
        Call(program: "flickr", arguments: ["map", "--out"], option: "--out"),
        Call(program: "flickr", arguments: ["list", "--by"], option: "--by"),
        Call(program: "flickr", arguments: ["watch", "--interval", "--live"], option: "--interval"),
        Call(program: "flickr", arguments: ["watch", "--runs"], option: "--runs"),
        Call(program: "flickr", arguments: ["list", "--store"], option: "--store", usesDefaultStore: true),
    ]

    @Test(arguments: calls)
    func anOptionWithoutItsValueIsAOneLineUsageError(_ call: Call) async throws {
        let sandbox = try call.sandbox()
        defer { sandbox.remove() }
        let run = try await sandbox.run(call.arguments, usesDefaultStore: call.usesDefaultStore)
        #expect(run.status == 2, "\(call): \(run)")
        #expect(run.output.isEmpty, "\(call): \(run)")
        let lines = run.errorOutput.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first.map(String.init) == call.message, "\(call): \(run)")
        #expect(lines.dropFirst().first?.hasPrefix("usage: \(call.program) ") == true, "\(call): \(run)")
    }
}
