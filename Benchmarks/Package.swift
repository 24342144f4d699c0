// swift-tools-version: 6.1
// FetchKit's benchmark package: every performance target measured side by side with the
// fastest honest alternative, in one release-mode run. It is a separate package so the main
// manifest keeps zero dependencies; it may depend on GRDB for the comparison.
//
// Run: swift run -c release --package-path Benchmarks FetchKitBenchmarks

import PackageDescription

let package = Package(
    name: "FetchKitBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "FetchKit", path: ".."),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLiteBench",
            path: "Sources/CSQLiteBench",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .executableTarget(
            name: "FetchKitBenchmarks",
            dependencies: [
                .product(name: "FetchKit", package: "FetchKit"),
                .product(name: "FetchKitTesting", package: "FetchKit"),
                .product(name: "Persistence", package: "FetchKit"),
                .product(name: "Decoding", package: "FetchKit"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .target(name: "CSQLiteBench", condition: .when(platforms: [.linux])),
            ],
            path: "Sources/FetchKitBenchmarks",
            resources: [.copy("Fixtures")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
