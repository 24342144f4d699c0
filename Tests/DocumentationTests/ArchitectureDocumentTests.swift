import Foundation
import Testing

/// `Docs/Architecture.md`'s module table says what `Package.swift` says: the same targets,
/// each with the same target dependencies.
@Suite struct ArchitectureDocumentTests {
    /// Every target but the test targets, with the names of the targets it depends on, read
    /// from the manifest's text: `.target(`, `.executableTarget(` and `.systemLibrary(` calls,
    /// and the quoted names in their `dependencies:` lists (`"Locking"`, or
    /// `.target(name: "CSQLite", condition: …)`).
    static func manifestTargets(_ manifest: String) throws -> [String: Set<String>] {
        // Comments would hide nothing here, but may hold quotes: drop them.
        let code = manifest.split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in line.range(of: "//").map { String(line[..<$0.lowerBound]) } ?? String(line) }
            .joined(separator: "\n")
        var targets: [String: Set<String>] = [:]
        for call in [".target(", ".executableTarget(", ".systemLibrary("] {
            var searchFrom = code.startIndex
            while let start = code.range(of: call, range: searchFrom..<code.endIndex) {
                let arguments = Self.balanced(code, from: start.upperBound)
                searchFrom = arguments.endIndex
                let text = String(arguments)
                // A `.target(name:condition:)` inside a dependencies list is a dependency, not a target.
                guard let name = Self.firstQuoted(after: "name:", in: text),
                    !text.contains("condition:")
                        || text.contains("dependencies:")
                else { continue }
                var dependencies: Set<String> = []
                if let list = text.range(of: "dependencies:") {
                    let open = try #require(text[list.upperBound...].firstIndex(of: "["))
                    let inside = Self.balanced(text, from: text.index(after: open), open: "[", close: "]")
                    dependencies = Set(Self.quoted(String(inside)))
                }
                targets[name] = dependencies
            }
        }
        return targets
    }

    /// Every target's `path:` argument, for the targets that give one (the calls
    /// ``manifestTargets(_:)`` reads).
    static func manifestTargetPaths(_ manifest: String) -> [String: String] {
        var paths: [String: String] = [:]
        for call in [".target(", ".executableTarget(", ".systemLibrary(", ".testTarget("] {
            var searchFrom = manifest.startIndex
            while let start = manifest.range(of: call, range: searchFrom..<manifest.endIndex) {
                let text = String(Self.balanced(manifest, from: start.upperBound))
                searchFrom = start.upperBound
                guard let name = Self.firstQuoted(after: "name:", in: text), let path = Self.firstQuoted(after: "path:", in: text)
                else { continue }
                paths[name] = path
            }
        }
        return paths
    }

    /// The module table's rows: each row's module (the first column's backquoted name) and the
    /// backquoted names in its "depends on" column.
    static func documentedTargets(_ document: String) throws -> [String: Set<String>] {
        let section = try #require(document.range(of: "| module | depends on |"))
        var targets: [String: Set<String>] = [:]
        for line in document[section.lowerBound...].split(separator: "\n").dropFirst(2) {
            guard line.hasPrefix("|") else { break }
            let columns = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            guard columns.count > 3, let module = Self.backquoted(columns[1]).first else { continue }
            targets[module] = Set(Self.backquoted(columns[2]))
        }
        return targets
    }

    @Test func theModuleTableListsEveryTargetWithItsDependencies() throws {
        let manifest = try Self.manifestTargets(Repository.text("Package.swift"))
        let document = try Self.documentedTargets(Repository.text("Docs/Architecture.md"))
        #expect(manifest.count >= 10, "the manifest reader found \(manifest.keys.sorted())")
        #expect(
            manifest["Persistence"] == ["Locking", "CAtomicWord", "CSQLite"], "the manifest reader read \(manifest)")
        for name in Set(manifest.keys).union(document.keys).sorted() {
            #expect(document[name] != nil, "Docs/Architecture.md's module table has no row for \(name)")
            #expect(
                manifest[name] != nil,
                "Docs/Architecture.md's module table lists \(name), which Package.swift does not declare")
            if let documented = document[name], let declared = manifest[name] {
                #expect(
                    documented == declared,
                    "\(name): Package.swift says it depends on \(declared.sorted()), Docs/Architecture.md says \(documented.sorted())"
                )
            }
        }
    }

    @Test func theManifestReaderSeesDependencyListsAndConditions() throws {
        let targets = try Self.manifestTargets(
            """
            .target(name: "A", swiftSettings: strict),
            // a comment with "quotes"
            .target(
                name: "B",
                dependencies: ["A", .target(name: "C", condition: .when(platforms: [.linux]))]
            ),
            .systemLibrary(name: "C", path: "Sources/C"),
            .executableTarget(name: "D", dependencies: ["B"], path: "Sources/D"),
            .testTarget(name: "DTests", dependencies: ["D"]),
            """)
        #expect(targets == ["A": [], "B": ["A", "C"], "C": [], "D": ["B"]])
    }

    // MARK: Reading

    static func balanced(
        _ text: String, from start: String.Index, open: Character = "(", close: Character = ")"
    ) -> Substring {
        var depth = 1
        var index = start
        while index < text.endIndex {
            if text[index] == open { depth += 1 }
            if text[index] == close {
                depth -= 1
                if depth == 0 { return text[start..<index] }
            }
            index = text.index(after: index)
        }
        return text[start...]
    }

    static func quoted(_ text: String) -> [String] {
        text.split(separator: "\"", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    private static func firstQuoted(after label: String, in text: String) -> String? {
        guard let range = text.range(of: label) else { return nil }
        return quoted(String(text[range.upperBound...])).first
    }

    private static func backquoted(_ text: String) -> [String] {
        text.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }
}
