// swift-tools-version: 6.0
import PackageDescription

// libFuzzer targets for every parser that reads untrusted bytes, in their own package
// (shared/reference/reliability.md §4: a `main`-less fuzz executable inside the root package breaks `swift test`'s
// link). The library folders under Sources/ are symbolic links to the root package's targets: compiled here as part
// of this package, their `package` API is visible to the fuzz code without making it public, and PreludeService is
// built with -enable-testing so the events fast-path scanner (internal) can be checked against the full decoder.
// One executable holds every target (chosen by PRELUDE_FUZZ_TARGET), so the sanitized modules are compiled and
// linked once. Build and run with scripts/fuzz.sh; docs/fuzzing.md describes the targets.
let package = Package(
    name: "PreludeFuzz",
    platforms: [.macOS(.v15)],
    targets: [
        .systemLibrary(name: "CZlib", path: "Sources/CZlib"),
        .systemLibrary(name: "CLinuxSystem", path: "Sources/CLinuxSystem"),
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite"),
        .systemLibrary(name: "CPostgres", path: "Sources/CPostgres"),
        .target(name: "CCurl", path: "Sources/CCurl"),
        .target(name: "PreludeCore", path: "Sources/PreludeCore"),
        .target(name: "PreludeLocking", path: "Sources/PreludeLocking"),
        .target(name: "PreludeHTTP", dependencies: ["CZlib", "CLinuxSystem", "PreludeLocking"], path: "Sources/PreludeHTTP"),
        .target(name: "PreludeStorage", dependencies: ["CSQLite", "CPostgres", "PreludeLocking"], path: "Sources/PreludeStorage"),
        .target(name: "PreludePreview", dependencies: ["PreludeCore"], path: "Sources/PreludePreview"),
        .target(name: "PreludeResultsPage", dependencies: ["PreludeCore"], path: "Sources/PreludeResultsPage"),
        .target(name: "PreludeStore", dependencies: ["PreludeCore", "PreludeStorage"], path: "Sources/PreludeStore"),
        .target(name: "PreludeHTTPClient", dependencies: ["CCurl"], path: "Sources/PreludeHTTPClient"),
        .target(
            name: "PreludeService",
            dependencies: [
                "PreludeCore", "PreludeHTTP", "PreludeHTTPClient", "PreludeStorage", "PreludeStore", "PreludePreview",
                "PreludeResultsPage", "CLinuxSystem",
            ],
            path: "Sources/PreludeService",
            swiftSettings: [.unsafeFlags(["-enable-testing"])]
        ),
        .executableTarget(
            name: "PreludeFuzz",
            dependencies: ["PreludeCore", "PreludeHTTP", "PreludeStore", "PreludeService"],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
    ]
)
