// A child process for Persistence's crash-safety tests.
//
// Usage:
//   PersistenceCrashWriter <store> loop
//       Commits one entry after another, forever, printing each entry's id on stdout once its
//       commit has returned. The test kills it with SIGKILL at a random moment.
//   PersistenceCrashWriter <store> cascade
//       Commit n inserts parent n with `CrashChild.perParent` children and deletes parent n - 2,
//       whose children the cascade rule deletes; prints n once the commit has returned.
//   PersistenceCrashWriter <store> enqueue-then-close <count>
//       Queues <count> persist blocks with the completion form, closes the store, then calls
//       exit(0): `close()` runs every accepted block first, so all are committed.
//   PersistenceCrashWriter <store> enqueue-then-exit <count>
//       Queues <count> persist blocks with the completion form, then calls exit(0) at once,
//       without closing: blocks not started are not run (no exit hook); those that ran are
//       committed whole.
import Foundation
import Persistence

struct Entry: StoredEntity {
    var id: Int64
    var payload: String

    /// The payload an entry must hold, so the test can check rows are intact.
    static func payload(for id: Int64) -> String {
        String(repeating: String(id % 10), count: Int(id % 700) + 1)
    }
}

struct CrashParent: StoredEntity {
    var id: Int64
    var name: String
}

struct CrashChild: StoredEntity {
    var id: Int64
    var parentID: Int64
    var payload: String

    static let perParent: Int64 = 50
    static let parent = ToOne<CrashChild, CrashParent>(Field("parentID"), onDelete: .cascade)
    static let relations: [any Relation<CrashChild>] = [parent]
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(2)
}

let arguments = CommandLine.arguments
guard arguments.count >= 3 else { fail("usage: PersistenceCrashWriter <store> loop | cascade | enqueue-then-close <count> | enqueue-then-exit <count>") }
let url = URL(fileURLWithPath: arguments[1])

do {
    let store = try ObjectStore(at: url, entities: [Entry.self, CrashParent.self, CrashChild.self])
    let context = store.context
    switch arguments[2] {
    case "loop":
        let idField = Field<Entry, Int64>("id")
        var next = try context.readAndWait { tx in
            try tx.first(Query<Entry>(sortedBy: [idField.descending()]))?.id ?? 0
        }
        while true {
            next += 1
            let id = next
            try context.persistAndWait { tx in
                try tx.insert(Entry(id: id, payload: Entry.payload(for: id)))
            }
            // Unbuffered: the line reaches the pipe before the next commit starts.
            FileHandle.standardOutput.write(Data("\(id)\n".utf8))
        }
    case "cascade":
        let parentID = Field<CrashParent, Int64>("id")
        var next = try context.readAndWait { tx in
            try tx.first(Query<CrashParent>(sortedBy: [parentID.descending()]))?.id ?? 0
        }
        while true {
            next += 1
            let id = next
            try context.persistAndWait { tx in
                try tx.insert(CrashParent(id: id, name: "parent \(id)"))
                try tx.insert(
                    contentsOf: (0..<CrashChild.perParent).map { child in
                        CrashChild(id: id * 1_000 + child, parentID: id, payload: Entry.payload(for: child))
                    })
                try tx.delete(CrashParent.self, id: id - 2)
            }
            FileHandle.standardOutput.write(Data("\(id)\n".utf8))
        }
    case "enqueue-then-close", "enqueue-then-exit":
        let count = Int64(arguments.count > 3 ? arguments[3] : "") ?? 100
        for id in 1...count {
            context.persist({ tx in try tx.insert(Entry(id: id, payload: Entry.payload(for: id))) }, completion: nil)
        }
        if arguments[2] == "enqueue-then-close" { store.close() }
        exit(0)
    default:
        fail("unknown mode \(arguments[2])")
    }
} catch {
    fail("PersistenceCrashWriter: \(error)")
}
