import Testing

@testable import PreludeService

@Suite struct ResourceLocatorTests {
    @Test func searchesWorkingDirectoryThenExecutableAncestors() {
        let candidates = ResourceLocator.candidates(
            "migrations", currentDirectory: "/home/me", executablePath: "/repo/.build/release/prelude")
        #expect(
            candidates == [
                "/home/me/migrations",
                "/repo/.build/release/migrations", "/repo/.build/release/share/prelude/migrations",
                "/repo/.build/migrations", "/repo/.build/share/prelude/migrations",
                "/repo/migrations", "/repo/share/prelude/migrations",
                "/migrations", "/share/prelude/migrations",
            ])
    }

    @Test func findsInstallPrefixShare() {
        let found = ResourceLocator.locate(
            "migrations", currentDirectory: "/", executablePath: "/usr/local/bin/prelude",
            exists: { $0 == "/usr/local/share/prelude/migrations" })
        #expect(found == "/usr/local/share/prelude/migrations")
    }

    @Test func absolutePathIsUsedAsGiven() {
        #expect(ResourceLocator.candidates("/etc/x", currentDirectory: "/a", executablePath: "/b/c") == ["/etc/x"])
    }
}
