// swift-tools-version: 6.2
// FetchKit: networking, persistence and decoding primitives for Swift.
//
// The main package has no package dependencies: the library, its tests and its
// examples use only the Swift toolchain and the system's SQLite. Benchmarks live
// in their own package under Benchmarks/.

import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "FetchKit",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "FetchKit", targets: ["FetchKit"]),
        .library(name: "Persistence", targets: ["Persistence"]),
        .library(name: "Decoding", targets: ["Decoding"]),
        .library(name: "Sync", targets: ["Sync"]),
        .library(name: "FetchKitTesting", targets: ["FetchKitTesting"]),
        .library(name: "FetchKitOperations", targets: ["FetchKitOperations"]),
        .executable(name: "booklab", targets: ["BookLab"]),
        .executable(name: "mustc", targets: ["MustC"]),
        .executable(name: "flickr", targets: ["Flickr"]),
    ],
    targets: [
        // MARK: Libraries
        // The lock box every module shares (`package` access; not a product).
        .target(name: "Locking", swiftSettings: strictSettings),
        .target(name: "Decoding", dependencies: ["Locking"], swiftSettings: strictSettings),
        .target(name: "FetchKit", dependencies: ["Decoding", "Locking"], swiftSettings: strictSettings),
        // The `Operation` bridge (FetchOperation, RefreshCompletionOperation): a thin layer over the
        // one request call, for code that schedules work on an `OperationQueue`.
        .target(name: "FetchKitOperations", dependencies: ["FetchKit", "Locking"], swiftSettings: strictSettings),
        .systemLibrary(
            name: "CSQLite",
            path: "Sources/CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .yum(["sqlite-devel"])]
        ),
        // Relaxed atomic loads and stores of a word (Persistence's row coders' generations), for
        // platforms older than the Synchronization module.
        .target(name: "CAtomicWord"),
        .target(
            name: "Persistence",
            dependencies: [
                "Locking", "CAtomicWord",
                .target(name: "CSQLite", condition: .when(platforms: [.linux, .android, .openbsd])),
            ],
            swiftSettings: strictSettings
        ),
        // A remote collection mirrored into a store: pulls by cursor, a durable outbox.
        .target(
            name: "Sync", dependencies: ["FetchKit", "Persistence", "Decoding", "Locking"], swiftSettings: strictSettings),
        .target(name: "FetchKitTesting", dependencies: ["FetchKit", "Locking"], swiftSettings: strictSettings),

        // MARK: Examples
        // The examples import only the products above and their own two targets, so their code
        // compiles as copied into an app (SourcesLayoutTests checks it).
        // The seeded random number generator of the examples' offline fixtures (the tests use it
        // too, to replay a randomized run from its seed).
        .target(name: "SeededRandom", path: "Sources/Examples/SeededRandom", swiftSettings: strictSettings),
        .target(
            name: "ExampleSupport",
            dependencies: ["FetchKit", "Persistence", "Decoding", "FetchKitTesting", "SeededRandom", "Sync"],
            path: "Sources/Examples/ExampleSupport",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "BookLab",
            dependencies: ["ExampleSupport", "FetchKit", "Persistence", "Decoding", "FetchKitTesting", "Sync"],
            path: "Sources/Examples/BookLab",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "MustC",
            dependencies: ["ExampleSupport", "FetchKit", "FetchKitOperations", "Persistence", "Decoding", "FetchKitTesting"],
            path: "Sources/Examples/MustC",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "Flickr",
            dependencies: ["ExampleSupport", "FetchKit", "Persistence", "Decoding", "FetchKitTesting", "Sync"],
            path: "Sources/Examples/Flickr",
            swiftSettings: strictSettings
        ),

        // MARK: Test support and tools (under Tests/: no product uses them)
        // A caching proxy that runs the public HTTP cache conformance suite (http-tests/cache-tests)
        // through a FetchClient and its HTTPCache: Scripts/cache-conformance.sh. Neither CI nor the
        // tests run it.
        .executableTarget(
            name: "CacheConformanceHarness",
            dependencies: ["FetchKit", "FetchKitTesting", "Locking"],
            path: "Tests/Tools/CacheConformanceHarness",
            swiftSettings: strictSettings
        ),
        // A child process for Persistence's crash-safety tests (killed with SIGKILL mid-write).
        .executableTarget(
            name: "PersistenceCrashWriter",
            dependencies: ["Persistence"],
            path: "Tests/Support/PersistenceCrashWriter",
            swiftSettings: strictSettings
        ),
        // Top-level code calling each callback/async twin with `try await`, as a script writes it
        // (run by PersistenceTests' TwinSelectionTests; CI builds it with warnings as errors).
        .executableTarget(
            name: "TopLevelTwins",
            dependencies: ["FetchKit", "FetchKitTesting", "Persistence"],
            path: "Tests/Support/TopLevelTwins",
            swiftSettings: strictSettings
        ),
        // A second process for HTTPCache's shared-folder tests (reads and writes entries in a
        // cache folder the test process uses at the same time).
        .executableTarget(
            name: "HTTPCacheWorker",
            dependencies: ["FetchKit", "Locking", "TestSupport"],
            path: "Tests/Support/HTTPCacheWorker",
            swiftSettings: strictSettings
        ),
        // The sync fault harness's backend and collection, and its child process, killed at a
        // kill point.
        .target(
            name: "SyncHarness", dependencies: ["Sync", "FetchKit", "Persistence", "FetchKitTesting", "Locking"],
            path: "Tests/Support/SyncHarness", swiftSettings: strictSettings),
        .executableTarget(
            name: "SyncWorker", dependencies: ["Sync", "SyncHarness", "FetchKit", "Persistence", "Locking"],
            path: "Tests/Support/SyncWorker", swiftSettings: strictSettings),
        // The test targets' shared helpers and fixtures (recorded API responses, JSONTestSuite).
        .target(
            name: "TestSupport",
            dependencies: ["Locking", "SeededRandom"],
            path: "Tests/Support/TestSupport",
            resources: [.copy("Fixtures")],
            swiftSettings: strictSettings
        ),

        // MARK: Tests
        .testTarget(
            name: "DecodingTests",
            dependencies: ["Decoding", "TestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "FetchKitTests",
            dependencies: [
                "FetchKit", "FetchKitOperations", "Decoding", "FetchKitTesting", "Persistence", "TestSupport", "Locking", "SeededRandom",
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ExamplesTests",
            dependencies: [
                "ExampleSupport", "FetchKit", "Persistence", "Sync", "SyncHarness", "FetchKitTesting", "TestSupport", "Locking",
            ],
            swiftSettings: strictSettings
        ),
        // The documentation's code samples (README, DocC articles, Docs/ guides) that use
        // several modules together, compiled in CI and the cheap ones run.
        .testTarget(
            name: "DocumentationTests",
            dependencies: ["FetchKit", "FetchKitOperations", "Persistence", "Decoding", "FetchKitTesting", "TestSupport"],
            swiftSettings: strictSettings
        ),
        // The UI samples and the README's sample again, in a target whose default isolation is
        // `MainActor`, as an Xcode 26 app target's is (its files link to DocumentationTests' and
        // FetchKitTests' own).
        .testTarget(
            name: "MainActorDocumentationTests",
            dependencies: ["FetchKit", "Persistence", "Decoding", "FetchKitTesting", "TestSupport"],
            swiftSettings: strictSettings + [.defaultIsolation(MainActor.self)]
        ),
        .testTarget(
            name: "SyncTests",
            dependencies: ["Sync", "SyncHarness", "FetchKit", "Persistence", "FetchKitTesting", "TestSupport", "Locking", "SeededRandom"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PersistenceTests",
            dependencies: [
                "Persistence", "Decoding", "TestSupport", "Locking",
                // The stock SQLite library, to read store files as other programs do.
                .target(name: "CSQLite", condition: .when(platforms: [.linux, .android, .openbsd])),
            ],
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
