public import Foundation

/// Real recorded API responses and the JSONTestSuite corpus, shared by the test targets.
///
/// The files live in `Tests/Support/TestSupport/Fixtures/`; `SOURCES.md` there names the
/// public repository and commit each one was copied from.
public enum Fixtures {
    /// The folder that holds the fixture files.
    public static var directory: URL {
        (Bundle.module.resourceURL ?? Bundle.module.bundleURL).appendingPathComponent("Fixtures", isDirectory: true)
    }

    /// The URL of one fixture, for example `url("googlebooks/volumes_zero_results.json")`.
    ///
    /// - Parameter relativePath: the path below the fixtures folder.
    /// - Returns: the file's URL (whether or not it exists).
    public static func url(_ relativePath: String) -> URL {
        directory.appendingPathComponent(relativePath)
    }

    /// The bytes of one fixture.
    ///
    /// - Parameter relativePath: the path below the fixtures folder.
    /// - Returns: the file's contents.
    /// - Throws: the `CocoaError` of `Data(contentsOf:)` when the file is missing.
    public static func data(_ relativePath: String) throws -> Data {
        try Data(contentsOf: url(relativePath))
    }

    /// The files of one fixture folder, sorted by name.
    ///
    /// - Parameter folder: a folder below the fixtures folder, such as `"jsontestsuite"`.
    /// - Returns: the URLs of its regular files.
    /// - Throws: the error of `FileManager.contentsOfDirectory(at:includingPropertiesForKeys:)`.
    public static func files(in folder: String) throws -> [URL] {
        try FileManager.default
            .contentsOfDirectory(at: url(folder), includingPropertiesForKeys: nil)
            .filter { !$0.hasDirectoryPath }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }
}
