// swift-tools-version: 6.1
import PackageDescription

/// Settings shared by every Swift target (Swift 6 language mode is the package default).
let swiftSettings: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny")]

let package = Package(
    name: "Prelude",
    platforms: [.macOS(.v15), .iOS(.v15)],
    products: [
        .executable(name: "prelude", targets: ["prelude"]),
        .library(name: "PreludeCore", targets: ["PreludeCore"]),
        // For the benchmark package (Benchmarks/), which depends on this package by path.
        .library(name: "PreludeHTTP", targets: ["PreludeHTTP"]),
        // The app's half: fetch, cache, decide offline, cadence ledger, durable events (docs/client.md).
        .library(name: "PreludeClient", targets: ["PreludeClient"]),
    ],
    // An app that links only PreludeClient turns the default trait off — `.package(url: …, from: …, traits: [])` —
    // and resolves no dependency at all: SwiftPM does not fetch a dependency only a disabled trait uses
    // (docs/client.md, "Add the package"; scripts/check-client-resolution.sh checks it).
    traits: [
        .trait(
            name: "CommandLineTool",
            description: "The prelude command-line tool's argument parsing (swift-argument-parser). On by default."),
        .default(enabledTraits: ["CommandLineTool"]),
    ],
    dependencies: [.package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2")],
    targets: [
        // System libraries (Debian: libsqlite3-dev, zlib1g-dev), the only -dev packages the build needs.
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CLinuxSystem", path: "Sources/CLinuxSystem"),
        // libpq, PostgreSQL's client library (Debian: libpq-dev, on a fresh machine of this kind): the second engine.
        .systemLibrary(name: "CPostgres", path: "Sources/CPostgres", providers: [.apt(["libpq-dev"])]),
        // libcurl for the outbound client, loaded at run time from libcurl.so.4 (Debian: libcurl4, on every machine
        // the toolchain runs on): no curl headers are needed to build (docs/http.md says why).
        .target(name: "CCurl", path: "Sources/CCurl"),

        // Pure core: policy model, validation, locale, semver, bucketing, decision engine. No I/O, no dependencies.
        .target(name: "PreludeCore", swiftSettings: swiftSettings),
        // Renders a policy's screens as one self-contained HTML page (the policy preview); depends on the core only.
        .target(name: "PreludePreview", dependencies: ["PreludeCore"], swiftSettings: swiftSettings),
        // Renders an experiment's results page (HTML + server-drawn SVG charts); depends on the core only.
        .target(name: "PreludeResultsPage", dependencies: ["PreludeCore"], swiftSettings: swiftSettings),
        // HTTP/1.1 on POSIX sockets and Dispatch; knows nothing of policy.
        // A lock ThreadSanitizer understands (pthread), for state shared between threads in HTTP and storage.
        .target(name: "PreludeLocking", swiftSettings: swiftSettings),
        .target(
            name: "PreludeHTTP", dependencies: ["CZlib", "CLinuxSystem", "PreludeLocking"], swiftSettings: swiftSettings
        ),
        // The one outbound HTTP/HTTPS client (healthcheck, replica, live tests), over libcurl.
        .target(name: "PreludeHTTPClient", dependencies: ["CCurl"], swiftSettings: swiftSettings),
        // SQLite over the C API: connections, statements, transactions, migrations.
        .target(
            name: "PreludeStorage", dependencies: ["CSQLite", "CPostgres", "PreludeLocking"],
            swiftSettings: swiftSettings),
        // Every SQL statement of the product: repositories over apps, revisions, audit, tokens, events, results
        // and the replica tables. Depends on the core and storage only, never on HTTP (scripts/check-layering.sh).
        .target(name: "PreludeStore", dependencies: ["PreludeCore", "PreludeStorage"], swiftSettings: swiftSettings),
        // Wires core, store and HTTP into the service: configuration, routes, served policies, composition root.
        .target(
            name: "PreludeService",
            dependencies: [
                "PreludeCore", "PreludeHTTP", "PreludeHTTPClient", "PreludeStorage", "PreludeStore", "PreludePreview",
                "PreludeResultsPage", "CLinuxSystem",
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "prelude",
            dependencies: [
                "PreludeService",
                "PreludeCore",
                "PreludeHTTP",
                "PreludeHTTPClient",
                "PreludeStorage",
                "PreludeStore",
                "PreludePreview",
                "PreludeResultsPage",
                .product(
                    name: "ArgumentParser", package: "swift-argument-parser",
                    condition: .when(traits: ["CommandLineTool"])),
            ],
            swiftSettings: swiftSettings
        ),

        // The client library an app links: PreludeCore and Foundation only (FoundationNetworking on Linux).
        .target(name: "PreludeClient", dependencies: ["PreludeCore"], swiftSettings: swiftSettings),
        // Test helper for the client's kill -9 test: records events and flushes them until SIGKILLed.
        .executableTarget(
            name: "prelude-client-crashtest", dependencies: ["PreludeClient", "PreludeCore"],
            swiftSettings: swiftSettings),

        // The reference client: plays every seed flow against a running server through PermissionFlow (CI runs it).
        .executableTarget(
            name: "prelude-client-demo", dependencies: ["PreludeClient", "PreludeCore"], swiftSettings: swiftSettings),
        // Test helper for the kill -9 durability test: performs acknowledged writes until SIGKILLed.
        .executableTarget(name: "prelude-crashtest", dependencies: ["PreludeStorage"], swiftSettings: swiftSettings),

        // Test helpers shared by several test targets (a test target cannot import another).
        .target(
            name: "PreludeTestSupport", dependencies: ["PreludeCore"], path: "Tests/PreludeTestSupport",
            swiftSettings: swiftSettings),
        .testTarget(
            name: "PreludeCoreTests", dependencies: ["PreludeCore", "PreludeTestSupport"], swiftSettings: swiftSettings),
        .testTarget(
            name: "PreludePreviewTests", dependencies: ["PreludePreview", "PreludeCore", "PreludeTestSupport"],
            exclude: ["Fixtures"],
            swiftSettings: swiftSettings),
        .testTarget(name: "PreludeLockingTests", dependencies: ["PreludeLocking"], swiftSettings: swiftSettings),
        .testTarget(
            name: "PreludeHTTPTests", dependencies: ["PreludeHTTP", "PreludeLocking"], swiftSettings: swiftSettings),
        .testTarget(
            name: "PreludeHTTPClientTests", dependencies: ["PreludeHTTPClient", "PreludeHTTP", "PreludeTestSupport"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "PreludeStorageTests", dependencies: ["PreludeStorage", "PreludeTestSupport"],
            swiftSettings: swiftSettings),
        // The store's test fixtures (a results database, events as plain rows), shared by the store's and the
        // service's tests.
        .target(
            name: "PreludeStoreTestSupport",
            dependencies: ["PreludeStore", "PreludeStorage", "PreludeCore", "PreludeTestSupport"],
            path: "Tests/PreludeStoreTestSupport", swiftSettings: swiftSettings),
        .testTarget(
            name: "PreludeStoreTests",
            dependencies: [
                "PreludeStore", "PreludeStorage", "PreludeCore", "PreludeTestSupport", "PreludeStoreTestSupport",
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "PreludeServiceTests",
            dependencies: [
                "PreludeService", "PreludeHTTP", "PreludeStorage", "PreludeStore", "PreludeCore", "PreludeTestSupport",
                "PreludeResultsPage", "PreludeStoreTestSupport",
            ],
            swiftSettings: swiftSettings
        ),
        // The command-line tool's options against the table of settings (an executable target can be imported).
        .testTarget(name: "preludeTests", dependencies: ["prelude", "PreludeService"], swiftSettings: swiftSettings),
        .testTarget(
            name: "PreludeClientTests",
            dependencies: [
                "PreludeClient", "PreludeCore", "PreludeService", "PreludeHTTP", "PreludeStorage", "PreludeStore",
                "PreludeTestSupport",
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
