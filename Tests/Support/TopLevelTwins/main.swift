// Top-level code calling every callback/async twin the way a script or a `main.swift` writes it:
// `try await` with a trailing closure. Each call must run the `async` form: wait for its work,
// return its value and throw its error. The package's build treats warnings as errors, so a call
// that picked a callback form ("no 'async' operations occur within 'await' expression") fails the
// build; the checks below fail the run. `Tests/PersistenceTests/TwinSelectionTests.swift` runs it.
import FetchKit
import FetchKitTesting
import Foundation
import Persistence

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

struct Note: StoredEntity, Equatable {
    var id: Int
    var text: String
    static let text = Field<Note, String>("text")
    static let byText = UniqueKey(text)
    static let uniqueKeys = [byText]
}

struct Failed: Error, CustomStringConvertible {
    let description: String
}

func check(_ condition: Bool, _ what: String) throws {
    guard condition else { throw Failed(description: "top-level twin check failed: \(what)") }
    print("ok: \(what)")
}

guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: TopLevelTwins <store file>\n".utf8))
    exit(64)
}
let store = try ObjectStore(at: URL(fileURLWithPath: CommandLine.arguments[1]), entities: [Note.self])
let context = store.context

// persist: the commit has happened when the call returns.
try await context.persist { tx in try tx.insert(Note(id: 1, text: "first")) }
try check(try context.readAndWait { try $0.count(Query<Note>()) } == 1, "persist waits for its commit")

// persist: a failing write throws here, and nothing of it is kept.
do {
    try await context.persist { tx in
        try tx.insert(Note(id: 2, text: "second"))
        try tx.insert(Note(id: 3, text: "first"))  // the unique key refuses it
    }
    try check(false, "a failing persist throws")
} catch let error as PersistenceError {
    try check(error.code == .uniqueKeyViolation, "a failing persist throws its error")
}
try check(try context.readAndWait { try $0.count(Query<Note>()) } == 1, "a failed persist leaves nothing")

// persist returning a value.
let inserted = try await context.persist { tx in
    try tx.insert(Note(id: 4, text: "fourth"))
    return try tx.count(Query<Note>())
}
try check(inserted == 2, "persist returns its block's value")

// read: the value, not `()`.
let notes = try await context.read { tx in try tx.fetch(Query<Note>(sortedBy: [Note.text.ascending()])) }
try check(notes.map(\.id) == [1, 4], "read returns its block's value")

// fetch, over the loopback server.
let server = StubServer()
try server.start()
server.route("GET", "/note", respond: .json(#"{"id": 7, "text": "fetched"}"#))
let client = FetchClient(configuration: .init())
struct NoteDTO: Decodable, Sendable {
    var id: Int
    var text: String
}
let fetched = try await client.fetch(
    .url(server.baseURL.appendingPathComponent("note")), extracting: .decode(NoteDTO.self))
try check(fetched.id == 7 && fetched.text == "fetched", "fetch returns the decoded value")

// collect: the whole run's summary.
server.route("GET", "/pages", respond: .json(#"[1, 2, 3]"#))
let pages = Paginator<Int>(style: .offset(pageSize: 10)) { _ in
    Page(
        items: try await client.fetch(
            .url(server.baseURL.appendingPathComponent("pages")), extracting: .decode([Int].self)))
}
let summary = await pages.collect { page in print("page of \(page.items.count)") }
try check(summary.items == [1, 2, 3], "collect returns the summary")

// run (fan-out): the report, after every item.
let report = await FanOut(maximumConcurrency: 2).run([1, 2, 3], changed: { _, _ in true }) { item in item * 10 }
try check(report.results.compactMap { try? $0.get() } == [10, 20, 30], "run returns the report")

// fetch to a file, shared by a key: the file.
server.route("GET", "/file", respond: .text("downloaded"))
let destination = URL(fileURLWithPath: CommandLine.arguments[1] + ".download")
let file = try await client.fetch(
    .url(server.baseURL.appendingPathComponent("file")), extracting: .file(to: destination), sharing: "file")
try check((try? String(contentsOf: file, encoding: .utf8)) == "downloaded", "a download returns the finished file")

// fetch of an endpoint that names its response: the value.
struct NoteByID: Endpoint {
    typealias Response = NoteDTO
    var baseURL: URL
    var path: String { "/note" }
}
let typed = try await client.fetch(NoteByID(baseURL: server.baseURL))
try check(typed.id == 7, "fetch of an endpoint with a response type returns its value")

print("all twins ran their async form")
