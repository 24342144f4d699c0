import Foundation
import Persistence
import TestSupport
import Testing

/// Text read back from a store: ASCII, other valid UTF-8, and bytes that are not UTF-8.
@Suite struct TextDecodingTests {
    @Test func asciiAndOtherUTF8ComeBackExactlyAndInvalidBytesAreATypedError() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open(relationEntities)
        defer { store.close() }
        let labels = ["", "Science fiction", "Éclair", "東京物語", "a\u{0}b", String(repeating: "x", count: 300) + "é"]
        try store.context.persistAndWait { tx in
            for (index, label) in labels.enumerated() { try tx.insert(RelShelf(id: "s\(index)", label: label)) }
        }
        let read = try store.context.readAndWait { tx in
            try tx.fetch(Query<RelShelf>(sortedBy: [RelShelf.idField.ascending()])).map(\.label)
        }
        #expect(read == labels)
        // Bytes that are not UTF-8, written by raw SQL: an ASCII byte then 0xFF, and a lone
        // continuation byte after 40 ASCII bytes.
        for bytes in ["66FF", String(repeating: "61", count: 40) + "80"] {
            try store.context.persistAndWait { tx in
                try tx.execute("UPDATE RelShelf SET label = CAST(X'\(bytes)' AS TEXT) WHERE id = 's1'")
            }
            #expect(throws: PersistenceError.self) {
                _ = try store.context.readAndWait { tx in try tx.fetch(Query<RelShelf>()) }
            }
        }
    }
}
