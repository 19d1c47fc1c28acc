import Foundation
import PreludeTestSupport

@testable import PreludeService

/// A temporary directory with a database path and a demo policy, and a configuration pointing at them
/// and at the repository's migrations.
final class ServiceFixture {
    let directory: String
    /// The test's database: a file in `directory`, or a fresh PostgreSQL database (``TestDatabase``).
    let database: String
    static let repositoryRoot = "/" + #filePath.split(separator: "/").dropLast(3).joined(separator: "/")
    /// A small valid policy of app `demo` (a stored revision that cannot be served makes `/readyz` 503).
    static let demoDocument = #"""
        {"schemaVersion": 1, "app": {"id": "demo", "name": "Demo"}, "features": {"camera": {"copy": {"en": {
          "prime": {"title": "Scan", "message": "{appName} scans documents.", "continueLabel": "Continue"},
          "settings": {"title": "Camera is off", "message": "Turn it on in Settings.", "openLabel": "Open Settings",
                       "cancelLabel": "Not Now"},
          "denied": {"title": "Camera is off", "message": "You can turn it on in Settings."},
          "restricted": {"title": "Not available", "message": "A device setting blocks this."},
          "unsupported": {"title": "No camera", "message": "This device has no camera."}}}}}}
        """#

    init() {
        directory = (FileManager.default.temporaryDirectory.path as NSString)
            .appendingPathComponent("prelude-service-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        database = TestDatabase.location(file: (directory as NSString).appendingPathComponent("prelude.sqlite"))
        write("demo.json", Self.demoDocument)
    }

    /// The migrations of the engine the suite runs on.
    static var migrationsDirectory: String {
        repositoryRoot + (TestDatabase.isPostgres ? "/migrations/postgres" : "/migrations")
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    func path(_ name: String) -> String { (directory as NSString).appendingPathComponent(name) }

    func write(_ name: String, _ text: String) {
        _ = FileManager.default.createFile(atPath: path(name), contents: Data(text.utf8))
    }

    static func make(_ fixture: ServiceFixture) -> ServiceConfiguration {
        var configuration = ServiceConfiguration()
        configuration.port = 0
        configuration.database = fixture.database
        configuration.migrationsDirectory = repositoryRoot + "/migrations"
        configuration.demoPolicy = fixture.path("demo.json")
        configuration.shutdownGracePeriod = 2
        configuration.logLevel = .error
        return configuration
    }
}
