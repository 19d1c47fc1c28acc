import Foundation
import PreludeTestSupport
import Testing

@testable import PreludeCore

/// docs/catalogue.md is the catalogue's source of truth for people; ``FeatureCatalogue`` is the same table for the
/// code. Every row of the document must be exactly the row the code renders, and every feature must have one.
@Suite struct CatalogueDocTests {
    /// The table's rows, by feature name (the first cell, without backquotes).
    static func documentRows() throws -> [String: String] {
        let text = try String(contentsOfFile: ContractVector.repositoryRoot + "/docs/catalogue.md", encoding: .utf8)
        var rows: [String: String] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false)
            let name = cells[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(
                in: CharacterSet(charactersIn: "`"))
            rows[name] = String(line)
        }
        return rows
    }

    /// The row the catalogue renders for `capabilities`, cell by cell as docs/catalogue.md writes it.
    static func row(_ capabilities: FeatureCapabilities) -> String {
        func version(_ v: SemanticVersion) -> String {
            v == SemanticVersion(major: 0, minor: 0) ? "any" : "\(v.major).\(v.minor)"
        }
        let statuses = AuthorizationStatus.allCases.compactMap { status in
            capabilities.statuses[status].map { "\(status) (\(version($0)))" }
        }
        var strategies = capabilities.strategies.filter { $0 == .prime || $0 == .direct }.map(\.rawValue)
        if let button = capabilities.button { strategies.append("button: \(button.kind) (\(version(button.since)))") }
        if let path = capabilities.permissionless {
            strategies.append("permissionless: \(path.path) (\(version(path.since)))")
        }
        var traits: [String] = []
        if capabilities.mayBeUnavailable { traits.append("may be unavailable") }
        if capabilities.asksOnce { traits.append("asks once (no Settings nudge)") }
        if capabilities.promptRecordedByClient { traits.append("prompt recorded by the client") }
        if !capabilities.statusKnowable { traits.append("status not knowable") }
        if capabilities.upgradeAsksOnce { traits.append("upgrade asked once") }
        if let reask = capabilities.systemReask {
            traits.append("system may re-ask (\(version(reask.since)), \(reask.regions.joined(separator: ", ")))")
        }
        if capabilities.reportedPartialGrant != nil { traits.append("partial grant reported by the app") }
        if capabilities.kind == .appConsent { traits.append("app-level consent (no OS prompt)") }
        let purpose =
            capabilities.purposeStrings.isEmpty
            ? "—" : capabilities.purposeStrings.map { "`\($0)`" }.joined(separator: ", ")
        let cells = [
            "`\(capabilities.feature)`", version(capabilities.introduced), statuses.joined(separator: ", "),
            strategies.joined(separator: ", "), purpose, traits.isEmpty ? "—" : traits.joined(separator: "; "),
            capabilities.applePage,
        ]
        return "| " + cells.joined(separator: " | ") + " |"
    }

    @Test func everyFeatureHasItsRowExactly() throws {
        let rows = try Self.documentRows()
        #expect(Set(rows.keys) == Set(Feature.allCases.map(\.rawValue)), "one row per feature, no other")
        for capabilities in FeatureCatalogue.all {
            #expect(rows[capabilities.feature.rawValue] == Self.row(capabilities), "row of \(capabilities.feature)")
        }
    }

    @Test func everyApplePageIsApplesDocumentation() {
        for capabilities in FeatureCatalogue.all {
            // An app-level consent has no API page: its source is App Review's guideline.
            let prefix =
                capabilities.kind == .appConsent
                ? "https://developer.apple.com/app-store/review/guidelines/"
                : "https://developer.apple.com/documentation/"
            #expect(capabilities.applePage.hasPrefix(prefix), "\(capabilities.feature)")
        }
    }

    @Test func everyPurposeStringIsAKnownKey() {
        for capabilities in FeatureCatalogue.all {
            for key in capabilities.purposeStrings {
                #expect(PurposeStringKey.known.contains(key), "\(capabilities.feature): \(key)")
            }
        }
    }
}
