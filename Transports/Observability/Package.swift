// swift-tools-version: 6.0
// FetchKitObservability: FetchKit's request lifecycle in swift-log and swift-metrics, the
// conventions of server-side Swift. A separate package, so FetchKit's own manifest keeps zero
// dependencies.
//
// Use it from your package:
//   .package(path: "../FetchKit/Transports/Observability")  // from a checkout of FetchKit
// and in code: FetchClient { $0.observers = [LoggingObserver(logger), MetricsObserver()] }

import PackageDescription

let package = Package(
    name: "FetchKitObservability",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "FetchKitObservability", targets: ["FetchKitObservability"])
    ],
    dependencies: [
        .package(name: "FetchKit", path: "../.."),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
    ],
    targets: [
        .target(
            name: "FetchKitObservability",
            dependencies: [
                .product(name: "FetchKit", package: "FetchKit"),
                .product(name: "Sync", package: "FetchKit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny"), .enableUpcomingFeature("InternalImportsByDefault")]
        ),
        .testTarget(
            name: "FetchKitObservabilityTests",
            dependencies: [
                "FetchKitObservability",
                .product(name: "FetchKit", package: "FetchKit"),
                .product(name: "FetchKitTesting", package: "FetchKit"),
                .product(name: "Sync", package: "FetchKit"),
                .product(name: "Persistence", package: "FetchKit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
