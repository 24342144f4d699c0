// swift-tools-version: 6.0
// FetchKitOpenAPI: a swift-openapi-runtime `ClientTransport` that sends a generated client's
// operations through a FetchClient (its cache, authenticator, retries, redaction, observers,
// and streaming on Linux). A separate package, so FetchKit's own manifest keeps zero dependencies.
//
// Use it from your package:
//   .package(url: "<FetchKit's repository>", from: "<version>")  // with path: "Transports/OpenAPI"
// and in code: Client(serverURL: url, transport: FetchClientTransport(client: fetchClient))
//
// NotesAPI holds the code swift-openapi-generator 1.14.3 made from its openapi.yaml (committed;
// `Scripts/generate.sh` makes it again); NotesServer serves it with Hummingbird for the tests
// and the benchmark.

import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"), .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "FetchKitOpenAPI",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "FetchKitOpenAPI", targets: ["FetchKitOpenAPI"])
    ],
    dependencies: [
        .package(name: "FetchKit", path: "../.."),
        .package(path: "../AsyncHTTPClient"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/hummingbird-project/swift-openapi-hummingbird", from: "2.1.0"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession", from: "1.4.0"),
        .package(url: "https://github.com/swift-server/swift-openapi-async-http-client", from: "1.5.0"),
    ],
    targets: [
        .target(
            name: "FetchKitOpenAPI",
            dependencies: [
                .product(name: "FetchKit", package: "FetchKit"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "NotesAPI",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            exclude: ["openapi.yaml", "openapi-generator-config.yaml"]
        ),
        .target(
            name: "NotesServer",
            dependencies: [
                "NotesAPI",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "OpenAPIHummingbird", package: "swift-openapi-hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "OpenAPITransportBenchmark",
            dependencies: [
                "FetchKitOpenAPI", "NotesAPI", "NotesServer",
                .product(name: "FetchKit", package: "FetchKit"),
                .product(name: "FetchKitAsyncHTTPClient", package: "AsyncHTTPClient"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "FetchKitOpenAPITests",
            dependencies: [
                "FetchKitOpenAPI", "NotesAPI", "NotesServer",
                .product(name: "FetchKit", package: "FetchKit"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
