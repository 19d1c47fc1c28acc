import Foundation
import Testing

@testable import PreludeService

/// The commands and answers README.md and docs/operations.md show are the ones an operator gets (issue 24).
@Suite struct OperatorDocsTests {
    static func file(_ path: String) throws -> String {
        try String(contentsOfFile: ServiceFixture.repositoryRoot + "/" + path, encoding: .utf8)
    }

    @Test func readmeHealthAnswersCarryThisBuildsVersionAndMigrationCount() throws {
        let readme = try Self.file("README.md")
        let migrations = try FileManager.default.contentsOfDirectory(
            atPath: ServiceFixture.repositoryRoot + "/migrations"
        )
        .filter { $0.hasSuffix(".sql") }.count
        #expect(
            readme.contains(
                #"200 {"leader":"scheduler,rollouts,webhooks,retention","migrations":"\#(migrations)","status":"ready"}"#
            ))
        #expect(readme.contains(#""version":"\#(ServiceInfo.version)"}"#))
    }

    /// README runs everything through `swift run prelude`; a bare `prelude token create` is a command not found.
    @Test func readmeCommandsRunTheBuiltBinary() throws {
        let lines = try Self.file("README.md").split(separator: "\n")
        let bare = lines.filter { $0.hasPrefix("prelude ") }
        #expect(bare.isEmpty, "\(bare)")
    }

    /// README is where an operator starts: it names the upgrade check, the version flag, the experiments listing,
    /// the private-CA setting of replicas, the changelog and the catalogue (each was missing once).
    @Test(arguments: [
        "migrate --check", "prelude --version", "experiments list", "--tls-ca-file", "PRELUDE_TLS_CA_FILE",
        "CHANGELOG.md", "docs/catalogue.md", "policy lint --app",
    ])
    func readmeNamesWhatAnOperatorNeeds(_ text: String) throws {
        #expect(try Self.file("README.md").contains(text))
    }

    /// `pidof prelude` names every prelude on the host (a replica, a backup in progress): restore stops one server.
    @Test func operationsRestoreStopsOnlyTheServerOfTheDatabase() throws {
        #expect(!(try Self.file("docs/operations.md")).contains("pidof"))
    }

    /// Docs cite files of this repository, or say it themselves: the machine's `shared/` folder is not shipped.
    @Test func docsCiteNoFileOutsideTheRepository() throws {
        let docs = try FileManager.default.contentsOfDirectory(atPath: ServiceFixture.repositoryRoot + "/docs")
            .filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }
        for path in docs + ["README.md"] {
            let text = try Self.file(path)
            #expect(!text.contains("shared/"), "\(path) cites a file outside the repository")
        }
    }
}
