// swift-tools-version:6.2
import PackageDescription

// Dependencies point one way: plugins → RoomKit (the plugin SDK: no engine, no
// PostgresNIO); RoomCore (the engine) → RoomKit; RoomProviders → RoomCore;
// RoomServer → RoomCore (and RoomProviders, for the local IM's WebSocket).
// RoomkeeperBuild is the one place concrete plugins and providers meet
// (Sources/RoomkeeperBuild/Build.swift); the executable and tests read it.
let package = Package(
    name: "roomkeeper",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "roomkeeper", targets: ["roomkeeper"]),
        .library(name: "RoomKit", targets: ["RoomKit"]),
        .library(name: "RoomCore", targets: ["RoomCore"]),
        .library(name: "PluginConformance", targets: ["PluginConformance"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
        // Exactly: we read its internals (PostgresBindings' layout, when a statement
        // completes; see PreparedStatements and CommitConfirmation).
        .package(url: "https://github.com/vapor/postgres-nio.git", exact: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.3"),
        .package(url: "https://github.com/LebJe/TOMLKit.git", from: "0.6.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        // Traces (#30): the Tracing API in the server, OTLP over HTTP (not gRPC) in the executable.
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
        .package(url: "https://github.com/swift-otel/swift-otel.git", from: "1.6.0", traits: ["OTLPHTTP"]),
    ],
    targets: [
        // The plugin SDK (#28): what a plugin may name. Room and effect values,
        // the plugin protocol, routes and calls, the handles the engine binds
        // to a call's tenant and plugin, wire parameters, the pure helpers.
        .target(
            name: "RoomKit",
            dependencies: [
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                // CPUWork: bcrypt and other heavy work on NIO's blocking pool.
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        .target(
            name: "RoomCore",
            dependencies: [
                "RoomKit",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                // Only to recognise the pool's own "cannot connect" error.
                .product(name: "_ConnectionPoolModule", package: "postgres-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "TOMLKit", package: "TOMLKit"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
        ),
        .target(
            name: "RoomProviders",
            dependencies: [
                "RoomCore",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Metrics", package: "swift-metrics"),
                // The local IM's client-chosen tokens are stored as bcrypt (#27).
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                // A webhook's own span (#30).
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                // Resolving a webhook's host on NIO's thread pool, to check its addresses.
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        // Scenario plugins: ordinary library targets under Plugins/, depending on RoomKit only
        // (not the engine, not PostgresNIO: their rows go through PluginTables). ops/test
        // builds with --explicit-target-dependency-import-check, so importing RoomCore fails.
        .target(
            name: "AudioChatroom",
            dependencies: ["RoomKit"],
            path: "Plugins/AudioChatroom"
        ),
        .target(
            name: "MusicLesson",
            dependencies: [
                "RoomKit",
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Plugins/MusicLesson"
        ),
        .target(
            name: "LiveQuiz",
            dependencies: ["RoomKit"],
            path: "Plugins/LiveQuiz"
        ),
        .target(
            name: "OneToOneCall",
            dependencies: ["RoomKit"],
            path: "Plugins/OneToOneCall"
        ),
        .target(
            name: "HeadsetLive",
            dependencies: ["RoomKit"],
            path: "Plugins/HeadsetLive"
        ),
        .target(
            name: "SealMic",
            dependencies: ["RoomKit"],
            path: "Plugins/SealMic"
        ),
        .target(
            name: "RoomServer",
            dependencies: [
                "RoomCore", "RoomProviders",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
        ),
        .target(
            name: "PluginConformance",
            dependencies: [
                "RoomCore", "RoomServer", "RoomProviders",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]
        ),
        .target(name: "RoomkeeperBuild", dependencies: ["RoomCore", "RoomProviders", "AudioChatroom", "SealMic", "MusicLesson", "LiveQuiz", "HeadsetLive", "OneToOneCall"]),
        .executableTarget(
            name: "roomkeeper",
            dependencies: [
                "RoomCore", "RoomServer", "RoomProviders", "RoomkeeperBuild", "RoomAdminCLI", "RoomLoadTest",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "OTel", package: "swift-otel"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                // ROOMKEEPER_EXECUTOR=nio installs NIO's event loops as the global executor.
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        // `roomkeeper admin …` (#44): the admin API over HTTP, tested against a live server.
        .target(
            name: "RoomAdminCLI",
            dependencies: [
                "RoomKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        // `roomkeeper load-test` (#44): any deployment's public routes and IM sockets, bounded.
        .target(
            name: "RoomLoadTest",
            dependencies: [
                "RoomKit",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        // ops/bench's reference: one bare route doing what /room/list does.
        .executableTarget(
            name: "bench-bare",
            dependencies: [
                "RoomCore",  // for PgPass only: the password comes from PGPASSFILE, as the server's does
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
        // Shared by the test targets: a PostgreSQL fixture and a test-only plugin.
        .target(
            name: "RoomTestSupport",
            dependencies: [
                "RoomCore", "RoomProviders", "RoomServer",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdWSTesting", package: "hummingbird-websocket"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            path: "Tests/RoomTestSupport"
        ),
        .testTarget(name: "RoomCoreTests", dependencies: [
            "RoomKit", "RoomCore", "RoomProviders", "RoomTestSupport", "RoomkeeperBuild", .product(name: "NIOPosix", package: "swift-nio"),
        ]),
        .testTarget(
            name: "RoomServerTests",
            dependencies: [
                "RoomCore", "RoomServer", "RoomProviders", "PluginConformance", "RoomTestSupport", "RoomkeeperBuild", "RoomAdminCLI",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdWSTesting", package: "hummingbird-websocket"),
            ]
        ),
        .testTarget(
            name: "AudioChatroomTests",
            dependencies: [
                "AudioChatroom", "RoomCore", "RoomServer", "RoomProviders", "PluginConformance", "RoomTestSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdWSTesting", package: "hummingbird-websocket"),
            ]
        ),
        .testTarget(
            name: "SealMicTests",
            dependencies: [
                "SealMic", "RoomCore", "RoomServer", "RoomProviders", "PluginConformance", "RoomTestSupport", "RoomLoadTest",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdWSTesting", package: "hummingbird-websocket"),
            ]
        ),
        .testTarget(
            name: "MusicLessonTests",
            dependencies: [
                "MusicLesson", "RoomCore", "RoomServer", "RoomProviders", "PluginConformance", "RoomTestSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdWSTesting", package: "hummingbird-websocket"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "OneToOneCallTests",
            dependencies: [
                "OneToOneCall", "RoomCore", "RoomServer", "RoomProviders", "PluginConformance", "RoomTestSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]
        ),
        .testTarget(
            name: "LiveQuizTests",
            dependencies: [
                "LiveQuiz", "RoomCore", "RoomServer", "RoomProviders", "PluginConformance", "RoomTestSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdWSTesting", package: "hummingbird-websocket"),
            ]
        ),
        .testTarget(
            name: "ProviderTests",
            dependencies: [
                "RoomCore", "RoomServer", "RoomProviders", "RoomTestSupport", "AudioChatroom", "SealMic", "HeadsetLive", "MusicLesson", "PluginConformance",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
