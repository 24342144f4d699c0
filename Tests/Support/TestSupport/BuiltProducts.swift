public import Foundation

/// Finds the executables `swift build` / `swift test` built next to the test bundle, for
/// tests that run a program as a child process (the example programs, the crash writer).
public enum BuiltProducts {
    /// The folders searched, nearest first: the test binary's folder and the bundles' folders,
    /// each with up to three parents.
    static var searchFolders: [URL] {
        var starts: [URL] = []
        if let first = CommandLine.arguments.first {
            starts.append(URL(fileURLWithPath: first).resolvingSymlinksInPath().deletingLastPathComponent())
        }
        for bundle in Bundle.allBundles { starts.append(bundle.bundleURL) }
        var folders: [URL] = []
        for start in starts {
            var folder = start
            for _ in 0..<4 {
                folders.append(folder)
                folder = folder.deletingLastPathComponent()
            }
        }
        return folders
    }

    /// The built executable named `name`.
    ///
    /// - Parameter name: the product's name, such as `booklab`.
    /// - Returns: its URL.
    /// - Throws: ``BuiltProductsError`` listing the places searched, when it is not built.
    public static func executable(named name: String) throws(BuiltProductsError) -> URL {
        let candidates = searchFolders.map { $0.appendingPathComponent(name) }
        if let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) {
            return found
        }
        throw BuiltProductsError(name: name, searched: candidates.map(\.path))
    }
}

extension BuiltProducts {
    /// The folder of the built modules (`FetchKit.swiftmodule`, …), for tests that compile code
    /// against them with `swiftc`: `Modules/` in the build folder, or the build folder itself.
    ///
    /// - Returns: its URL.
    /// - Throws: ``BuiltProductsError`` listing the places searched, when there is none.
    public static func modulesFolder() throws(BuiltProductsError) -> URL {
        let candidates = searchFolders.flatMap { [$0.appendingPathComponent("Modules"), $0] }
        let module = "FetchKit.swiftmodule"
        if let found = candidates.first(where: {
            FileManager.default.fileExists(atPath: $0.appendingPathComponent(module).path)
        }) {
            return found
        }
        throw BuiltProductsError(name: module, searched: candidates.map(\.path))
    }
}

/// A product the tests need is not built.
public struct BuiltProductsError: Error, CustomStringConvertible {
    /// The product's name.
    public let name: String
    /// The paths searched.
    public let searched: [String]

    /// Says what is missing and how to build it.
    public var description: String {
        "The \(name) executable was not found next to the test bundle (searched \(searched.joined(separator: ", "))). "
            + "Build every product first: swift build --build-tests"
    }
}
