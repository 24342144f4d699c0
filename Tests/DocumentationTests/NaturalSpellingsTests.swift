import Foundation
import TestSupport
import Testing

/// The spellings a newcomer tries first are answered by the compiler with the call to use: each
/// is compiled with `swiftc -typecheck` against the built modules, and its error must be the
/// unavailable declaration's message. The right calls beside them still compile (the
/// unavailable overloads make none of them ambiguous).
@Suite struct NaturalSpellingsTests {
    /// A wrong spelling and what its error message must say.
    struct Spelling: Sendable {
        var code: String
        var message: String
    }

    /// In a transaction, `tx`.
    static let transaction: [Spelling] = [
        Spelling(code: "_ = try tx.fetch(Book.self)", message: "rows are read by a query: tx.fetch(Query<Book>())"),
        Spelling(
            code: "_ = try tx.fetch(Book.self, where: Book.title == \"Dune\")",
            message: "tx.fetch(Query<Book>(where: …, sortedBy: …))"),
        Spelling(code: "_ = try tx.count(Book.self)", message: "rows are counted by a query: tx.count(Query<Book>())"),
        Spelling(code: "_ = try tx.exists(Book.self)", message: "tx.exists(Query<Book>())"),
        Spelling(code: "_ = try tx.first(Book.self)", message: "tx.first(Query<Book>(where: …, sortedBy: …))"),
        Spelling(code: "try tx.delete(Book.self)", message: "rows are deleted by a query: tx.delete(Query<Book>())"),
    ]

    /// With a client, `client`, a URL, `url`, an endpoint, `endpoint`, and a store's context, `context`.
    static let fetches: [Spelling] = [
        Spelling(
            code: "_ = try await client.fetch(url, extracting: .string)",
            message: "a URL is fetched as an endpoint: client.fetch(.url(url), extracting: …)"),
        Spelling(
            code: "client.fetch(url, extracting: .string) { _ in }",
            message: "client.fetch(.url(url), extracting: …) { result in … }"),
        Spelling(code: "_ = try await client.fetch(url)", message: "client.fetch(.url(url), extracting: .data)"),
        Spelling(
            code: "_ = try await client.fetch(\"https://example.com/books\", extracting: .data)",
            message: "client.fetch(.url(URL(string: text)), extracting: …)"),
        Spelling(
            code: "_ = try await client.fetch(endpoint, extracting: Movie.self)",
            message: "a response is decoded by an extraction: extracting: .decode(Movie.self)"),
        Spelling(
            code: "_ = try await client.fetch(endpoint, extracting: .json(Movie.self))",
            message: "a JSON body is decoded with .decode(Movie.self)"),
        // Core Data's spellings.
        Spelling(
            code: "context.perform { tx in try tx.upsert(Book(id: \"1\", title: \"Dune\")) }",
            message: "a context writes in a transaction: try await context.persist { tx in … }"),
        Spelling(code: "context.save()", message: "there is nothing to save: try await context.persist { tx in … }"),
    ]

    /// The right calls, each beside its wrong spelling above.
    static let rightCalls = [
        "_ = try tx.fetch(Query<Book>())",
        "_ = try tx.fetch(Query<Book>(where: Book.title == \"Dune\", sortedBy: [Book.title.ascending()]))",
        "_ = try tx.fetch(Book.self, id: \"1\")",
        "_ = try tx.count(Query<Book>())",
        "_ = try tx.exists(Query<Book>())",
        "_ = try tx.first(Query<Book>())",
        "try tx.delete(Query<Book>())",
        "_ = try tx.delete(Book.self, id: \"1\")",
        "_ = try await client.fetch(.url(url), extracting: .string)",
        "client.fetch(.url(url), extracting: .string) { _ in }",
        "_ = try await client.fetch(.url(url), extracting: .data)",
        "_ = try await client.fetch(.url(URL(string: \"https://example.com/books\")), extracting: .data)",
        "_ = try await client.fetch(endpoint, extracting: .decode(Movie.self))",
        "try await context.persist { tx in try tx.upsert(Book(id: \"1\", title: \"Dune\")) }",
        "_ = try await context.read { tx in try tx.count(Query<Book>()) }",
    ]

    /// A file holding `transaction` lines in a transaction and `fetches` lines in an async
    /// function with a client, and the line number of each.
    static func source(transaction: [String], fetches: [String]) -> (text: String, lines: [Int]) {
        var text = """
            import FetchKit
            import Foundation
            import Persistence

            struct Book: StoredEntity {
                var id: String
                var title: String
                static let title = Field<Book, String>("title")
            }

            struct Movie: Decodable, Sendable { var title: String }

            func inTransaction(_ tx: ObjectTransaction) throws {

            """
        var lines: [Int] = []
        var line = text.filter { $0 == "\n" }.count + 1
        for code in transaction {
            text += "    \(code)\n"
            lines.append(line)
            line += 1
        }
        text +=
            "}\n\nfunc fetching(_ client: FetchClient, url: URL, endpoint: URLEndpoint, context: ObjectContext) async throws {\n"
        line += 3
        for code in fetches {
            text += "    \(code)\n"
            lines.append(line)
            line += 1
        }
        text += "}\n"
        return (text, lines)
    }

    /// Type-checks `source` against the built modules; returns what the compiler printed.
    static func typecheck(_ source: String) async throws -> ProgramRun {
        let folder = try TemporaryDirectory(prefix: "NaturalSpellings")
        let file = folder.file("spellings.swift")
        try Data(source.utf8).write(to: file)
        let modules = try BuiltProducts.modulesFolder()
        let build = modules.lastPathComponent == "Modules" ? modules.deletingLastPathComponent() : modules
        var arguments = [
            "swiftc", "-typecheck", "-swift-version", "6", "-I", modules.path,
            "-module-cache-path", folder.file("module-cache").path,
        ]
        // The package's C modules, which the Swift modules import (CSQLite on Linux only).
        let atomicMap = build.appendingPathComponent("CAtomicWord.build/module.modulemap")
        if FileManager.default.fileExists(atPath: atomicMap.path) {
            let include = Repository.root.appendingPathComponent("Sources/CAtomicWord/include")
            arguments += ["-Xcc", "-fmodule-map-file=\(atomicMap.path)", "-Xcc", "-I\(include.path)"]
        }
        #if os(Linux)
            let sqliteMap = Repository.root.appendingPathComponent("Sources/CSQLite/module.modulemap")
            arguments += ["-Xcc", "-fmodule-map-file=\(sqliteMap.path)"]
        #endif
        arguments.append(file.path)
        return try await ProgramRun.run(executable: URL(fileURLWithPath: "/usr/bin/env"), arguments)
    }

    @Test func eachNaturalSpellingIsAnsweredWithTheCallToUse() async throws {
        let spellings = Self.transaction + Self.fetches
        let (source, lines) = Self.source(
            transaction: Self.transaction.map(\.code), fetches: Self.fetches.map(\.code))
        let run = try await Self.typecheck(source)
        let errors = (run.output + run.errorOutput).split(separator: "\n").filter {
            $0.hasPrefix("spellings.swift:") || $0.contains("/spellings.swift:")
        }
        .filter { $0.contains(": error: ") }
        #expect(run.status != 0, "the wrong spellings compiled: \(run)")
        for (spelling, line) in zip(spellings, lines) {
            let at = errors.filter { $0.contains("spellings.swift:\(line):") }
            #expect(
                at.contains { $0.contains("is unavailable: ") && $0.contains(spelling.message) },
                "`\(spelling.code)` is answered with \(at.isEmpty ? ["no error"] : at), not with the call to use (\(spelling.message))"
            )
        }
        let otherErrors = errors.filter { error in !lines.contains { error.contains("spellings.swift:\($0):") } }
        #expect(otherErrors.isEmpty, "errors on other lines: \(otherErrors)")
    }

    @Test func theRightCallsStillCompile() async throws {
        let transaction = Self.rightCalls.filter { $0.contains("tx.") && !$0.contains("context.") }
        let fetches = Self.rightCalls.filter { !transaction.contains($0) }
        let run = try await Self.typecheck(Self.source(transaction: transaction, fetches: fetches).text)
        #expect(run.status == 0, "\(run)")
    }
}
