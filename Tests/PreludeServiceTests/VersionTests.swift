import Foundation
import Testing

@testable import PreludeService

/// One version everywhere an operator or a client reads it: `prelude --version`, `/healthz`, `prelude_build_info`,
/// CHANGELOG.md (with its "Upgrading" note) and the requirement docs/client.md tells apps to pin.
@Suite struct VersionTests {
    static func repositoryFile(_ path: String) throws -> String {
        try String(contentsOfFile: ServiceFixture.repositoryRoot + "/" + path, encoding: .utf8)
    }

    @Test func changelogHasTheVersionWithAnUpgradingNote() throws {
        let changelog = try Self.repositoryFile("CHANGELOG.md")
        let heading = "## \(ServiceInfo.version) "
        let section = try #require(changelog.components(separatedBy: heading).dropFirst().first, "no \(heading)")
        let ownSection = section.components(separatedBy: "\n## ").first ?? ""
        #expect(ownSection.contains("### Upgrading"))
    }

    /// Pinned to the last release — a tag that resolves (scripts/release-tags.txt; issue 35: the version of an
    /// unreleased main has no tag, so pinning it found no version) — with the command-line tool's trait off.
    @Test func clientDocsPinTheLastReleaseNotABranch() throws {
        let client = try Self.repositoryFile("docs/client.md")
        let releases = try Self.repositoryFile("scripts/release-tags.txt").split(separator: "\n")
            .filter { !$0.hasPrefix("#") }.compactMap { $0.split(separator: " ").first }
        let last = try #require(releases.last.map(String.init))
        #expect(
            client.contains(#".package(url: "https://example.com/prelude.git", from: "\#(last)", traits: [])"#))
        #expect(!client.contains("branch: \"main\""))
    }

    @Test func theBinaryHealthAndMetricsReportTheVersion() throws {
        let version = try CommandLineTests.runPrelude(["--version"], in: nil)
        #expect(version.status == 0)
        #expect(version.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == ServiceInfo.version)

        let fixture = ServiceFixture()
        let service = try PreludeService.start(
            configuration: ServiceFixture.make(fixture), logger: Logger(level: .error))
        defer { service.stop() }
        let health = try TestTransport.live(port: service.port).get("/healthz")
        #expect(health.body.contains(#""version":"\#(ServiceInfo.version)""#))
        let metrics = try TestTransport.live(port: service.port).get("/metrics")
        #expect(metrics.body.contains(#"prelude_build_info{version="\#(ServiceInfo.version)"} 1"#))
    }
}
