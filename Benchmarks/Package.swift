// swift-tools-version: 6.1
// FetchKit's benchmark package: every performance target measured side by side with the
// fastest honest alternative, in one release-mode run. It is a separate package so the main
// manifest keeps zero dependencies; it may depend on GRDB, AsyncHTTPClient and SwiftNIO for the
// comparisons.
//
// Run: swift run -c release --package-path Benchmarks FetchKitBenchmarks

import PackageDescription

let package = Package(
    name: "FetchKitBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "FetchKit", path: ".."),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        // The Linux peers: AsyncHTTPClient raw, FetchKit over it, and a SwiftNIO reference server.
        .package(name: "FetchKitAsyncHTTPClient", path: "../Transports/AsyncHTTPClient"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
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
                .product(name: "Sync", package: "FetchKit"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "FetchKitAsyncHTTPClient", package: "FetchKitAsyncHTTPClient"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .target(name: "CSQLiteBench", condition: .when(platforms: [.linux])),
            ],
            path: "Sources/FetchKitBenchmarks",
            resources: [.copy("Fixtures")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
