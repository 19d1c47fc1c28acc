// swift-tools-version: 6.0
import PackageDescription

// Benchmark package, outside the default build: `swift build --package-path Benchmarks -c release`.
// scripts/bench.sh builds it and loads it with wrk next to the peers in ../shared/bench/peers.
let package = Package(
    name: "PreludeBenchmarks",
    platforms: [.macOS(.v15), .iOS(.v15)],
    dependencies: [
        .package(name: "Prelude", path: "..")
    ],
    targets: [
        .executableTarget(
            name: "prelude-bench-server",
            dependencies: [.product(name: "PreludeHTTP", package: "Prelude")]
        ),
        // Condition evaluation and decide with conditioned rules (issue 38).
        .executableTarget(
            name: "prelude-bench-conditions",
            dependencies: [.product(name: "PreludeCore", package: "Prelude")]
        ),
        // The client library's costs: offline decision, memory with the demo policy, cold start from the cache.
        .executableTarget(
            name: "prelude-bench-client",
            dependencies: [
                .product(name: "PreludeClient", package: "Prelude"), .product(name: "PreludeCore", package: "Prelude"),
            ]
        ),
    ]
)
