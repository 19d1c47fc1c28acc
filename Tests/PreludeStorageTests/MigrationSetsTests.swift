import Foundation
import PreludeStorage
import Testing

/// The two engines' migration folders stay in step (docs/storage.md, "Migrations per engine"): PostgreSQL's set
/// starts with one file at the schema version SQLite's first seventeen reach, and every later migration exists in
/// both folders under the same number and name, so both engines report the same schema version.
@Suite struct MigrationSetsTests {
    static let root = "/" + #filePath.split(separator: "/").dropLast(3).joined(separator: "/") + "/migrations"

    @Test func everyMigrationAfterTheBaselineIsInBothFolders() throws {
        let sqlite = try MigrationCatalog.load(directory: Self.root)
        let postgres = try MigrationCatalog.load(directory: Self.root + "/postgres")
        let baseline = try #require(postgres.first)
        #expect(baseline.name == "0017_schema")
        #expect(sqlite.contains { $0.number == baseline.number })
        let later = sqlite.filter { $0.number > baseline.number }.map(\.name)
        #expect(Array(postgres.dropFirst()).map(\.name) == later)
        #expect(Migrator(migrations: sqlite).schemaVersion == Migrator(migrations: postgres).schemaVersion)
    }
}
