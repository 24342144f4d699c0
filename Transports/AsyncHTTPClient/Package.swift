// swift-tools-version: 6.0
// FetchKitAsyncHTTPClient: an opt-in FetchKit transport over swift-server/async-http-client
// (SwiftNIO). A separate package, so FetchKit's own manifest keeps zero dependencies.
//
// Use it from your package:
//   .package(url: "<FetchKit's repository>", from: "<version>")  // with path: "Transports/AsyncHTTPClient"
// and in code: FetchClient { $0.transport = AsyncHTTPClientTransport() }

import PackageDescription

let package = Package(
    name: "FetchKitAsyncHTTPClient",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "FetchKitAsyncHTTPClient", targets: ["FetchKitAsyncHTTPClient"])
    ],
    dependencies: [
        .package(name: "FetchKit", path: "../.."),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        .target(
            name: "FetchKitAsyncHTTPClient",
            dependencies: [
                .product(name: "FetchKit", package: "FetchKit"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny"), .enableUpcomingFeature("InternalImportsByDefault")]
        ),
        .testTarget(
            name: "FetchKitAsyncHTTPClientTests",
            dependencies: [
                "FetchKitAsyncHTTPClient",
                .product(name: "FetchKit", package: "FetchKit"),
                .product(name: "FetchKitTesting", package: "FetchKit"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
