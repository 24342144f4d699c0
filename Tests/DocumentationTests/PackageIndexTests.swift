import Foundation
import Testing

/// What the Swift Package Index reads: `.spi.yml` documents every library product the manifest
/// declares (each with its DocC catalog), and the manifests name every Apple platform, visionOS
/// included, as the README says.
@Suite struct PackageIndexTests {
    /// The names in the manifest's `.library(name: …)` products.
    static func libraryProducts() throws -> Set<String> {
        let manifest = try Repository.text("Package.swift")
        return Set(manifest.matches(of: /\.library\(name: "([A-Za-z]+)"/).map { String($0.output.1) })
    }

    /// The targets of `.spi.yml`'s `documentation_targets: [A, B]` lines.
    static func documentedTargets() throws -> [String] {
        let manifest = try Repository.text(".spi.yml")
        return manifest.matches(of: /documentation_targets: \[([^\]]*)\]/).flatMap { match in
            match.output.1.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }

    @Test func theIndexDocumentsEveryLibraryProductFromItsCatalog() throws {
        let products = try Self.libraryProducts()
        #expect(products.count >= 6, "read the products \(products.sorted())")
        let documented = try Self.documentedTargets()
        #expect(documented.count == Set(documented).count, ".spi.yml names a target twice: \(documented)")
        #expect(
            Set(documented) == products,
            ".spi.yml documents \(documented.sorted()); the library products are \(products.sorted())")
        for target in documented {
            let catalog = Repository.root.appendingPathComponent("Sources/\(target)/\(target).docc")
            #expect(
                FileManager.default.fileExists(atPath: catalog.path), "\(target) has no catalog at \(catalog.path)")
        }
    }

    @Test(arguments: [
        "Package.swift", "Transports/AsyncHTTPClient/Package.swift", "Transports/Observability/Package.swift",
    ])
    func theManifestNamesEveryApplePlatform(_ path: String) throws {
        let manifest = try Repository.text(path)
        let line = try #require(
            manifest.split(separator: "\n").first { $0.contains("platforms: [") }, "\(path) declares no platforms")
        for platform in [".macOS(", ".iOS(", ".tvOS(", ".watchOS(", ".visionOS("] {
            #expect(line.contains(platform), "\(path)'s platforms omit \(platform): \(line)")
        }
    }

    @Test func theReadmeListsThePlatformsTheManifestDeclares() throws {
        let readme = try Repository.text("README.md")
        let requirements = try #require(
            readme.components(separatedBy: "## Requirements").dropFirst().first?.components(separatedBy: "\n## ").first)
        for platform in ["Linux", "macOS 13", "iOS 16", "tvOS 16", "watchOS 9", "visionOS 1"] {
            #expect(requirements.contains(platform), "the README's requirements omit \(platform)")
        }
    }
}
