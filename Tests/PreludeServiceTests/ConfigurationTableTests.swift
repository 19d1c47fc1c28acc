import Testing

@testable import PreludeService

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The table of settings (``ConfigurationSetting/definition``) against the code and docs/configuration.md: a setting
/// the docs miss, or whose names or default differ there, fails here. The command-line side is SettingOptionsTests.
@Suite struct ConfigurationTableTests {
    /// docs/configuration.md's "Settings" table: file key → cells (key, environment, flag, default, meaning).
    static func documentedRows() throws -> [String: [String]] {
        let root = "/" + #filePath.split(separator: "/").dropLast(3).joined(separator: "/")
        let text = try String(contentsOfFile: root + "/docs/configuration.md", encoding: .utf8)
        let section = try #require(text.components(separatedBy: "\n## Settings\n").last)
        var rows: [String: [String]] = [:]
        for line in section.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            rows[String(cells[0].dropFirst().dropLast())] = cells
        }
        return rows
    }

    @Test(arguments: ConfigurationSetting.allCases)
    func docsListTheSettingAsTheTableDoes(setting: ConfigurationSetting) throws {
        let row = try #require(try Self.documentedRows()[setting.jsonKey], "docs/configuration.md misses \(setting)")
        let definition = setting.definition
        #expect(row[1] == "`\(definition.environmentVariable)`")
        #expect(row[2] == "`\(definition.flag)`")
        switch definition.defaultValue {
        case .value(let text): #expect(row[3] == "`\(text)`")
        case .unset: #expect(row[3].hasPrefix("none"), "\(row[3])")
        }
    }

    @Test func docsListNoSettingTheTableLacks() throws {
        let documented = Set(try Self.documentedRows().keys)
        #expect(documented == Set(ConfigurationSetting.allCases.map(\.jsonKey)))
    }

    /// A value default of the table, parsed, is the built-in default of ``ServiceConfiguration``.
    @Test(arguments: ConfigurationSetting.allCases)
    func tableDefaultIsTheBuiltInOne(setting: ConfigurationSetting) throws {
        guard case .value(let text) = setting.definition.defaultValue else { return }
        #expect(
            try ServiceConfiguration.resolve(fileText: nil, environment: [:], flags: [setting: text])
                == ServiceConfiguration())
    }

    /// The file takes a numeric setting as a JSON number and the others as strings (derived from the parsed type).
    @Test func fileTakesNumbersExactlyForNumericSettings() {
        let numeric = ConfigurationSetting.allCases.filter { $0.definition.isNumeric }.map(\.rawValue)
        #expect(
            numeric == [
                "port", "shutdownGracePeriod", "drainSeconds", "databaseReaders", "adminPort", "policyMaxAge",
                "policyStaleWhileRevalidate", "policyStaleIfError", "resolvedCacheSize", "eventRetentionDays",
                "adminAuthFailuresPerMinute", "eventsPerInstallPerSecond", "eventsPerInstallBurst",
                "eventsPerAddressPerSecond", "eventsPerAddressBurst",
            ])
    }

    @Test func helpShowsTheDefault() {
        #expect(ConfigurationSetting.port.definition.commandLineHelp == "TCP port; 0 picks a free one. [default: 8080]")
        #expect(
            ConfigurationSetting.adminHost.definition.commandLineHelp
                == "Address of a separate admin listener (with --admin-port). [default: --host]")
        #expect(!ConfigurationSetting.followURL.definition.commandLineHelp.contains("[default:"))
    }
}
