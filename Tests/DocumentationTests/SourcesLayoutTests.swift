import Foundation
import Testing

/// `Sources/` holds the products and what they are built from, and nothing else: test-only
/// targets and developer tools live under `Tests/`, and the examples import only products (and
/// their own support targets), so their code compiles as copied into an app.
@Suite struct SourcesLayoutTests {
    /// A target of the manifest: its folder and the targets it depends on.
    struct Target: Equatable {
        var path: String
        var dependencies: Set<String>
    }

    /// The manifest's targets (not its test targets), each with its folder: its `path:`, or
    /// `Sources/<name>`.
    static func targets(_ manifest: String) throws -> [String: Target] {
        let dependencies = try ArchitectureDocumentTests.manifestTargets(manifest)
        let paths = ArchitectureDocumentTests.manifestTargetPaths(manifest)
        return dependencies.reduce(into: [:]) { targets, entry in
            targets[entry.key] = Target(path: paths[entry.key] ?? "Sources/\(entry.key)", dependencies: entry.value)
        }
    }

    /// The targets the manifest's products are made of: `.library(…, targets: [...])` and
    /// `.executable(…, targets: [...])`.
    static func productTargets(_ manifest: String) -> Set<String> {
        var names: Set<String> = []
        for call in [".library(", ".executable("] {
            var searchFrom = manifest.startIndex
            while let start = manifest.range(of: call, range: searchFrom..<manifest.endIndex) {
                let arguments = ArchitectureDocumentTests.balanced(manifest, from: start.upperBound)
                searchFrom = arguments.endIndex
                guard let list = arguments.range(of: "targets:"),
                    let open = arguments[list.upperBound...].firstIndex(of: "[")
                else { continue }
                // The substring shares the manifest's indices.
                let inside = ArchitectureDocumentTests.balanced(
                    manifest, from: manifest.index(after: open), open: "[", close: "]")
                names.formUnion(ArchitectureDocumentTests.quoted(String(inside)))
            }
        }
        return names
    }

    /// The products' targets and every target they depend on, directly or not.
    static func productClosure(_ targets: [String: Target], products: Set<String>) -> Set<String> {
        var reached: Set<String> = []
        var next = Array(products)
        while let name = next.popLast() {
            guard reached.insert(name).inserted else { continue }
            next.append(contentsOf: targets[name]?.dependencies ?? [])
        }
        return reached
    }

    /// The folders under `Sources/` that are no target's folder and hold none: `Sources/Examples`
    /// holds targets, so its own folders are looked at in turn.
    static func strayFolders(
        in folder: String, targetPaths: Set<String>, list: (String) throws -> [String]
    ) rethrows
        -> [String]
    {
        var strays: [String] = []
        for name in try list(folder).sorted() {
            let path = folder + "/" + name
            if targetPaths.contains(path) { continue }
            if targetPaths.contains(where: { $0.hasPrefix(path + "/") }) {
                strays += try strayFolders(in: path, targetPaths: targetPaths, list: list)
            } else {
                strays.append(path)
            }
        }
        return strays
    }

    /// The modules a Swift file imports (`import X`, `public import X`, `@testable import X`, …).
    static func imports(_ source: String) -> [String] {
        source.split(separator: "\n").compactMap { line in
            let words = line.split(separator: " ").filter { !$0.hasPrefix("@") }
            let kinds: Set<Substring> = ["public", "package", "internal", "fileprivate", "private"]
            let rest = words.first.map { kinds.contains($0) } == true ? words.dropFirst() : words[...]
            guard rest.first == "import", rest.count >= 2 else { return nil }
            // `import struct Foundation.URL` names the module after the kind.
            let declarationKinds: Set<Substring> = [
                "typealias", "struct", "class", "enum", "protocol", "let", "var", "func",
            ]
            let second = rest[rest.startIndex + 1]
            guard !declarationKinds.contains(second) else {
                return rest.count >= 3 ? String(rest[rest.startIndex + 2].split(separator: ".")[0]) : nil
            }
            let module = second
            return String(module.split(separator: ".")[0])
        }
    }

    static let manifest = Result { try Repository.text("Package.swift") }

    @Test func everyTargetInSourcesIsAProductOrPartOfOne() throws {
        let manifest = try Self.manifest.get()
        let targets = try Self.targets(manifest)
        let products = Self.productTargets(manifest)
        #expect(products.isSuperset(of: ["FetchKit", "Persistence", "BookLab"]), "the reader found \(products)")
        let used = Self.productClosure(targets, products: products)
        for (name, target) in targets.sorted(by: { $0.key < $1.key }) where target.path.hasPrefix("Sources/") {
            #expect(
                used.contains(name),
                "\(name) (\(target.path)) is neither a product's target nor a dependency of one: move it under Tests/")
        }
    }

    @Test func everyFolderInSourcesIsATarget() throws {
        let targetPaths = Set(try Self.targets(try Self.manifest.get()).values.map(\.path))
        let strays = try Self.strayFolders(in: "Sources", targetPaths: targetPaths) { folder in
            try FileManager.default.contentsOfDirectory(atPath: Repository.root.appendingPathComponent(folder).path)
                .filter { name in
                    var isFolder: ObjCBool = false
                    let path = Repository.root.appendingPathComponent(folder + "/" + name).path
                    return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue
                }
        }
        #expect(strays.isEmpty, "folders in Sources/ that are no target of Package.swift: \(strays)")
    }

    @Test func theExamplesImportOnlyProductsAndTheirOwnTargets() throws {
        let manifest = try Self.manifest.get()
        let targets = try Self.targets(manifest)
        let products = Self.productTargets(manifest)
        let examples = Repository.root.appendingPathComponent("Sources/Examples")
        let files = try #require(FileManager.default.enumerator(at: examples, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        #expect(files.count > 20, "found \(files.count) Swift files under Sources/Examples")
        for file in files {
            for module in Self.imports(try String(contentsOf: file, encoding: .utf8)) {
                guard let target = targets[module] else { continue }  // Foundation, Glibc, …
                #expect(
                    products.contains(module) || target.path.hasPrefix("Sources/Examples/"),
                    "\(file.lastPathComponent) imports \(module), which is not a product")
            }
        }
    }

    @Test func theReadersSeeProductsPathsAndImports() throws {
        let manifest = """
            products: [.library(name: "A", targets: ["A"]), .executable(name: "d", targets: ["D"])],
            .target(name: "A", dependencies: ["B"]),
            .target(name: "B"),
            .target(name: "Helper", path: "Tests/Support/Helper"),
            .executableTarget(name: "D", dependencies: ["A"], path: "Sources/Examples/D"),
            """
        let targets = try Self.targets(manifest)
        #expect(targets["Helper"] == Target(path: "Tests/Support/Helper", dependencies: []))
        #expect(targets["B"]?.path == "Sources/B")
        #expect(Self.productTargets(manifest) == ["A", "D"])
        #expect(Self.productClosure(targets, products: ["D"]) == ["A", "B", "D"])
        let folders = ["Sources": ["A", "B", "Examples", "Stray"], "Sources/Examples": ["D", "Notes"]]
        let strays = Self.strayFolders(in: "Sources", targetPaths: Set(targets.values.map(\.path))) {
            folders[$0] ?? []
        }
        #expect(strays == ["Sources/Examples/Notes", "Sources/Stray"])
        #expect(
            Self.imports(
                "import Foundation\npublic import FetchKit\n@testable import Locking\nimport struct Glibc.FILE\nimport Dispatch // queues\n// import X"
            )
                == ["Foundation", "FetchKit", "Locking", "Glibc", "Dispatch"])
    }
}
