// swift-tools-version: 6.2
// The libFuzzer targets, one per parser of outside bytes. A package of its own: each target is
// built with `-sanitize=fuzzer,address` (libFuzzer gives `main`, so the targets parse as
// libraries) and imports the library modules `@testable`, built with `-enable-testing`.
// Run one with `Scripts/fuzz.sh TARGET SECONDS` from the repository's root.
import PackageDescription

/// libFuzzer supplies `main`: the target's file is a library with an `LLVMFuzzerTestOneInput`.
let fuzzTarget: [SwiftSetting] = [.unsafeFlags(["-parse-as-library"]), .swiftLanguageMode(.v6)]

let package = Package(
    name: "FetchKitFuzz",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "FetchKit", path: "..")],
    targets: [
        .executableTarget(
            name: "FuzzJSON", dependencies: [.product(name: "Decoding", package: "FetchKit")],
            swiftSettings: fuzzTarget),
        .executableTarget(
            name: "FuzzPaths", dependencies: [.product(name: "Decoding", package: "FetchKit")],
            swiftSettings: fuzzTarget),
        .executableTarget(
            name: "FuzzEvents", dependencies: [.product(name: "FetchKit", package: "FetchKit")],
            swiftSettings: fuzzTarget),
        .executableTarget(
            name: "FuzzHTTPHeaders", dependencies: [.product(name: "FetchKit", package: "FetchKit")],
            swiftSettings: fuzzTarget),
        .executableTarget(
            name: "FuzzCacheEntry", dependencies: [.product(name: "FetchKit", package: "FetchKit")],
            swiftSettings: fuzzTarget),
        .executableTarget(
            name: "FuzzStubRequest", dependencies: [.product(name: "FetchKitTesting", package: "FetchKit")],
            swiftSettings: fuzzTarget),
        .executableTarget(
            name: "FuzzEndpoint", dependencies: [.product(name: "FetchKit", package: "FetchKit")],
            swiftSettings: fuzzTarget),
    ]
)
