import Foundation

@testable import PreludeCore

/// Shared policy fixtures for the core tests.
enum PolicyFixtures {
    /// A small valid document: microphone with English copy, one experiment.
    static let minimalText = """
        {
          "schemaVersion": 1,
          "app": {"id": "test", "name": "Test App"},
          "defaults": {
            "copy": {
              "en": {
                "prime": {"continueLabel": "Continue"},
                "settings": {"openLabel": "Open Settings", "cancelLabel": "Not Now"},
                "denied": {"title": "Access is off", "message": "You can turn it on in Settings."},
                "restricted": {"title": "Not available", "message": "A device setting blocks this."},
                "unsupported": {"title": "Not on this device", "message": "This device does not have it."}
              }
            }
          },
          "features": {
            "microphone": {
              "copy": {
                "en": {
                  "prime": {"title": "Record notes", "message": "{appName} records voice notes."},
                  "settings": {"title": "Microphone is off", "message": "Open Settings to record."}
                }
              }
            }
          },
          "experiments": [
            {"key": "mic", "feature": "microphone", "variants": [{"name": "a", "weight": 50}, {"name": "b", "weight": 50}]}
          ]
        }
        """

    /// `minimalText` parsed.
    static func minimal() throws -> JSONValue { try JSONValue(parsing: minimalText) }

    /// `minimalText` with an RFC 7396 merge patch applied.
    static func minimal(patchedWith patch: String) throws -> JSONValue {
        try minimal().mergePatch(try JSONValue(parsing: patch))
    }

    /// The repository's config/demo-policy.json.
    static func demoText() throws -> String {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("config/demo-policy.json")
        return try String(contentsOf: url, encoding: .utf8)
    }

    /// The demo policy decoded; fails the test when it has problems.
    static func demo() throws -> PolicyDocument {
        let validation = PolicyValidator.validate(text: try demoText())
        guard let document = validation.document else {
            throw FixtureError.invalid(validation.problems.map(\.description))
        }
        return document
    }

    enum FixtureError: Error {
        case invalid([String])
    }
}
