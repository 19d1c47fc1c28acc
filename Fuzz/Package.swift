// swift-tools-version: 6.0
import PackageDescription

// libFuzzer target for PreludeHTTP's RequestDecoder, in its own package (shared/reference/reliability.md §4:
// a `main`-less fuzz executable inside the root package breaks `swift test`'s link).
// Sources/PreludeHTTP and Sources/CZlib are symbolic links to the root package's targets: compiled here as
// part of this package, the decoder's `package` API is visible to the fuzz target without making it public.
// Build and run with scripts/fuzz.sh.
let package = Package(
    name: "PreludeFuzz",
    platforms: [.macOS(.v15)],
    targets: [
        .systemLibrary(name: "CZlib", path: "Sources/CZlib"),
        .target(name: "PreludeHTTP", dependencies: ["CZlib"], path: "Sources/PreludeHTTP"),
        .executableTarget(
            name: "FuzzRequestDecoder",
            dependencies: ["PreludeHTTP"],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
    ]
)
