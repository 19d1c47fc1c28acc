import Foundation
import PreludeCore
import PreludeStorage
import PreludeStore
import PreludeTestSupport

@testable import PreludeService

/// A temporary directory holding a migrated database seeded with the repository's real demo policy, for the
/// policy store, public API, events and seed-flow tests.
final class PublicFixture {
    let directory: String
    static let demoPolicyPath = ServiceFixture.repositoryRoot + "/config/demo-policy.json"
    static let demoPolicyText = try! String(contentsOfFile: demoPolicyPath, encoding: .utf8)
    /// The demo document as decoded by the core.
    static let demoDocument: PolicyDocument = PolicyValidator.validate(text: demoPolicyText).document!

    init() {
        directory = (FileManager.default.temporaryDirectory.path as NSString)
            .appendingPathComponent("prelude-public-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        database = TestDatabase.location(file: (directory as NSString).appendingPathComponent("prelude.sqlite"))
    }

    /// The test's database: a file in `directory`, or a fresh PostgreSQL database (``TestDatabase``).
    let database: String

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    func path(_ name: String) -> String { (directory as NSString).appendingPathComponent(name) }

    /// A migrated database with the demo policy as revision 1 of app `demo`.
    func makeDatabase() throws -> Database {
        let database = try Database(location: DatabaseLocation(database), readerCount: 2)
        let migrator = Migrator(migrations: try MigrationCatalog.load(directory: ServiceFixture.migrationsDirectory))
        _ = try migrator.migrate(database)
        try DemoSeeder.seedIfEmpty(database, documentText: Self.demoPolicyText, sourcePath: Self.demoPolicyPath)
        return database
    }

    /// The service configuration: port 0, this directory's database, the real demo policy.
    func configuration() -> ServiceConfiguration {
        var configuration = ServiceConfiguration()
        configuration.port = 0
        configuration.database = database
        configuration.migrationsDirectory = ServiceFixture.repositoryRoot + "/migrations"
        configuration.demoPolicy = Self.demoPolicyPath
        configuration.shutdownGracePeriod = 2
        configuration.logLevel = .error
        return configuration
    }

    /// Starts the whole service in-process on 127.0.0.1:0.
    func startService(_ adjust: (inout ServiceConfiguration) -> Void = { _ in }) throws -> PreludeService {
        var configuration = configuration()
        adjust(&configuration)
        return try PreludeService.start(configuration: configuration, logger: Logger(level: .error))
    }

    /// The demo document with the camera priming title replaced in English, as a new revision candidate.
    static func demoDocument(cameraTitle: String) -> PolicyDocument {
        var document = demoDocument
        var camera = document.features[.camera]!
        let english = LocaleTag("en")!
        var copy = camera.settings.copy[english] ?? CopySet()
        copy.texts[CopyKey(.prime, .title)] = cameraTitle
        camera.settings.copy[english] = copy
        document.features[.camera] = camera
        return document
    }
}
