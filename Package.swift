// swift-tools-version:6.1
import PackageDescription

// Module layout and dependency direction follow ../shared/DESIGN.md:
// jadwal -> JadwalServer (assembly) -> front doors (JadwalAPI, JadwalWeb, JadwalCalDAV) and adapters
// (JadwalMail, JadwalPush, JadwalLLM, JadwalJobs) -> JadwalHTTP -> JadwalCore -> pure modules;
// Storage implements Core's store. docs/architecture.md draws it.
/// The pure modules and Core, which every front door and adapter may use.
let core: [Target.Dependency] = ["JadwalCore", "Conversations", "PrayerTimes", "ICalendar", "Scheduling"]
/// The I/O plumbing adapters share.
let io: [Target.Dependency] = [
    .product(name: "Crypto", package: "swift-crypto"),
    .product(name: "NIOCore", package: "swift-nio"),
    .product(name: "NIOPosix", package: "swift-nio"),
    .product(name: "NIOFoundationCompat", package: "swift-nio"),
    .product(name: "NIOSSL", package: "swift-nio-ssl"),
    .product(name: "Metrics", package: "swift-metrics"),
    .product(name: "Logging", package: "swift-log"),
]

let package = Package(
    name: "jadwal",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "jadwal", targets: ["jadwal"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/vapor/sql-kit.git", from: "3.36.0"),
        .package(url: "https://github.com/vapor/sqlite-kit.git", from: "4.5.2"),
        .package(url: "https://github.com/vapor/postgres-kit.git", from: "2.17.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/vapor/sqlite-nio.git", from: "1.13.2"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.8.0"),
        .package(url: "https://github.com/weichsel/ZIPFoundation.git", exact: "0.9.20"),
        .package(url: "https://github.com/vapor/multipart-kit.git", from: "4.7.1"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
        // Tests only: the local APNs server (HTTP/2 over TLS) and its self-signed certificate.
        // async-http-client already builds all three.
        .package(url: "https://github.com/apple/swift-nio-http2.git", from: "1.46.0"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        // Tests only: property-based tests of the scheduling rules.
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
    ],
    targets: [
        // Pure modules: no I/O, no server types. CivilTime is their one copy of day arithmetic.
        .target(name: "CivilTime"),
        .target(name: "ICalendar", dependencies: ["CivilTime"]),
        .target(name: "PrayerTimes", dependencies: ["CivilTime"]),
        // Busy time, conflicts, free-slot suggestions, routines, task planning: instants and
        // intervals only; JadwalCore expands recurrences and hands it plain blocks.
        .target(name: "Scheduling", dependencies: ["CivilTime"]),
        // Chat messages in (WhatsApp exports and zips, Cloud API webhooks, connector batches),
        // the conversation tracker and the rule-based extractor.
        .target(
            name: "Conversations",
            dependencies: [
                "CivilTime",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]
        ),

        // WebDAV/CalDAV bodies: safe namespace-aware XML, request models, multistatus, filters.
        .target(name: "DAV", dependencies: ["ICalendar"]),

        .target(
            name: "JadwalCore",
            dependencies: [
                "CivilTime",
                "PrayerTimes",
                "ICalendar",
                // The CalDAV URL layout (`DAVHref`): a calendar user is addressed by their principal URL too.
                "DAV",
                "Conversations",
                "Scheduling",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                // Apple Health's export.zip, inflated as it streams (Tracker/HealthExportArchive).
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]
        ),
        .target(
            name: "Storage",
            dependencies: [
                "JadwalCore",
                "Conversations",
                "ICalendar",
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "SQLiteKit", package: "sqlite-kit"),
                .product(name: "PostgresKit", package: "postgres-kit"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                // Only to recognise its pool's errors (PostgreSQL unreachable) as StoreUnavailable.
                .product(name: "_ConnectionPoolModule", package: "postgres-nio"),
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The front doors and adapters (docs/architecture.md has the picture). JadwalHTTP is the
        // plumbing every HTTP front door shares: the request context, middleware, sessions and
        // credentials, JSON bodies and errors, uploads, metrics, the notification hub. The API,
        // the web app and CalDAV each import it and Core, never each other.
        .target(name: "JadwalHTTP", dependencies: core + [
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "JWTKit", package: "jwt-kit"),
            .product(name: "MultipartKit", package: "multipart-kit"),
            .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "Prometheus", package: "swift-prometheus"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ] + io),
        .target(name: "JadwalAPI", dependencies: core + ["DAV", "JadwalHTTP", "JadwalPush", .product(name: "Hummingbird", package: "hummingbird"),
                                                         .product(name: "HTTPTypes", package: "swift-http-types"),
                                                         .product(name: "MultipartKit", package: "multipart-kit")] + io),
        .target(
            name: "JadwalWeb",
            dependencies: core + ["JadwalHTTP", .product(name: "Hummingbird", package: "hummingbird"),
                                  .product(name: "HTTPTypes", package: "swift-http-types"),
                                  .product(name: "Mustache", package: "swift-mustache")] + io,
            // The web app's templates, scripts, styles and texts travel beside the binary
            // (`jadwal_JadwalWeb.resources`); no build step, no CDN.
            resources: [.copy("Assets")]
        ),
        .target(name: "JadwalCalDAV", dependencies: core + ["DAV", "JadwalHTTP", .product(name: "Hummingbird", package: "hummingbird"),
                                                            .product(name: "HTTPTypes", package: "swift-http-types")] + io),
        // Adapters to the world outside: mail over SMTP, Apple push, an OpenAI-compatible model.
        .target(name: "JadwalMail", dependencies: core + io),
        // Web Push posts through JadwalFetch's fetcher: push endpoints are addresses people give.
        .target(name: "JadwalPush", dependencies: core + ["JadwalFetch",
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ] + io),
        .target(name: "JadwalLLM", dependencies: core + [.product(name: "AsyncHTTPClient", package: "async-http-client")] + io),
        // Fetching the URLs people give (subscribed feeds): its own HTTP client, so every hop is
        // checked on the address it connects to (no private addresses, no DNS rebinding).
        .target(name: "JadwalFetch", dependencies: core + ["DAV", .product(name: "NIOHTTP1", package: "swift-nio")] + io),
        // The job handlers: Core's durable jobs delivered through the adapters.
        .target(name: "JadwalJobs", dependencies: core + ["JadwalHTTP", "JadwalMail", "JadwalPush",
                                                          .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")] + io),
        // The assembly: configuration, storage, every front door and worker, one Application.
        .target(
            name: "JadwalServer",
            dependencies: core + [
                "Storage", "JadwalHTTP", "JadwalAPI", "JadwalWeb", "JadwalCalDAV", "JadwalMail", "JadwalPush", "JadwalLLM", "JadwalJobs", "JadwalFetch",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ] + io
        ),
        .executableTarget(
            name: "jadwal",
            dependencies: [
                "JadwalServer", "JadwalHTTP", "JadwalAPI", "JadwalWeb", "JadwalCalDAV", "JadwalMail", "JadwalPush", "JadwalLLM", "JadwalJobs",
                "Conversations",
                "PrayerTimes",
                "ICalendar",
                "JadwalCore",
                "Storage",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        .testTarget(name: "ICalendarTests", dependencies: ["ICalendar"], resources: [.copy("Fixtures")]),
        .testTarget(name: "PrayerTimesTests", dependencies: ["PrayerTimes"], resources: [.copy("Fixtures")]),
        .testTarget(
            name: "SchedulingTests",
            dependencies: ["Scheduling", "CivilTime", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(
            name: "ConversationsTests",
            dependencies: ["Conversations", .product(name: "ZIPFoundation", package: "ZIPFoundation")],
            resources: [.copy("Fixtures")]
        ),
        // Shared by the test targets only: throwaway databases on both engines, outside tools.
        .target(
            name: "JadwalTestSupport",
            dependencies: [
                "Storage",
                "JadwalCore",
                "JadwalServer", "JadwalHTTP", "JadwalAPI", "JadwalWeb", "JadwalCalDAV", "JadwalMail", "JadwalPush", "JadwalLLM", "JadwalJobs",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                // HealthExportSample writes the Health app's export.zip.
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ],
            path: "Tests/JadwalTestSupport"
        ),
        .testTarget(name: "JadwalCoreTests", dependencies: ["JadwalCore", "ICalendar", "PrayerTimes", "Conversations", "Scheduling", .product(name: "Crypto", package: "swift-crypto"),
                                                            .product(name: "ZIPFoundation", package: "ZIPFoundation")]),
        .testTarget(name: "DAVTests", dependencies: ["DAV", "ICalendar"]),
        .testTarget(
            name: "StorageTests",
            dependencies: ["Storage", "JadwalCore", "Conversations", "ICalendar", "Scheduling", "JadwalTestSupport", .product(name: "SQLKit", package: "sql-kit"),
                           .product(name: "ZIPFoundation", package: "ZIPFoundation")]
        ),
        .testTarget(
            name: "JadwalServerTests",
            dependencies: [
                "JadwalServer", "JadwalHTTP", "JadwalAPI", "JadwalWeb", "JadwalCalDAV", "JadwalMail", "JadwalPush", "JadwalLLM", "JadwalJobs",
                "JadwalFetch", "ICalendar",
                "JadwalCore",
                "Conversations",
                "DAV",
                "Storage",
                "JadwalTestSupport",
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOHPACK", package: "swift-nio-http2"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
