import Foundation
import Testing

/// Each public type of the library modules lives in a file named after it (`Type.swift`, or
/// `Type+Concern.swift`), so a reader finds a type by its name.
@Suite struct TypeFileTests {
    static let modules = ["FetchKit", "Persistence", "Decoding", "FetchKitTesting", "Sync"]

    /// The top-level public types a source file declares: the names after `public struct`,
    /// `public final class`, `public class`, `public enum`, `public protocol` or `public actor`
    /// at the start of a line (attributes before them allowed); nested types are indented.
    static func publicTypes(in source: String) -> [String] {
        let declaration = #/^(?:@\w+(?:\([^)]*\))?\s+)*public\s+(?:final\s+)?(?:struct|class|enum|protocol|actor)\s+(\w+)/#
        return source.split(separator: "\n").compactMap { line in
            (try? declaration.prefixMatch(in: line)).flatMap { $0.map { String($0.1) } }
        }
    }

    @Test func theScannerFindsTopLevelPublicTypesOnly() {
        let source = """
            public struct Book: Sendable {
                public enum Shelf { case read }
            }
            @dynamicMemberLookup
            public final class Store<Entity> {}
            @available(macOS 14, *) public protocol Live {}
            struct Hidden {}
            public func helper() {}
            """
        #expect(Self.publicTypes(in: source) == ["Book", "Store", "Live"])
    }

    @Test func everyPublicTypeIsInAFileOfItsName() throws {
        var misplaced: [String] = []
        for module in Self.modules {
            let folder = Repository.root.appendingPathComponent("Sources/\(module)")
            let enumerator = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
            var files = 0
            for case let file as URL in enumerator where file.pathExtension == "swift" {
                files += 1
                let base = file.deletingPathExtension().lastPathComponent
                for type in Self.publicTypes(in: try String(contentsOf: file, encoding: .utf8))
                where base != type && !base.hasPrefix(type + "+") {
                    misplaced.append("\(module)/\(file.lastPathComponent) declares \(type)")
                }
            }
            #expect(files > 0, "no sources found for \(module) under \(folder.path)")
        }
        #expect(misplaced.isEmpty, "move each type into a file of its name: \(misplaced.joined(separator: "; "))")
    }
}
