import Foundation
import Persistence
import TestSupport

/// A fresh directory and a store file inside it, removed when the test ends.
final class StoreFixture: Sendable {
    let directory: TemporaryDirectory
    let url: URL

    init(_ name: String = "store.sqlite") throws {
        directory = try TemporaryDirectory(prefix: "PersistenceTests")
        url = directory.file(name)
    }

    func open(
        _ entities: [any StoredEntity.Type] = [Book.self, Counter.self, Photo.self],
        configure: (inout ObjectStore.Configuration) -> Void = { _ in }
    ) throws(PersistenceError) -> ObjectStore {
        try ObjectStore(at: url, entities: entities, configure: configure)
    }

    deinit { directory.remove() }
}
