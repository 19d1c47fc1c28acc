import Testing

@testable import PreludeCore

/// OS-1, LN-1, LS-1 and CT-1: the catalogue's OS-version and status-API rules (docs/lint.md).
@Suite struct CatalogueLintTests {
    static func document(
        _ feature: Feature, settings: FeatureOverride = FeatureOverride(), targeting: [TargetingRule] = [],
        experiments: [Experiment] = [], minimumOS: String? = nil
    ) -> PolicyDocument {
        PolicyDocument(
            app: AppInfo(id: "lint", name: "Lint", minimumOS: minimumOS.flatMap(SemanticVersion.init)),
            features: [feature: FeaturePolicy(feature: feature, settings: settings, targeting: targeting)],
            experiments: experiments)
    }

    static func findings(_ document: PolicyDocument, _ rule: LintRule) -> [LintFinding] {
        CatalogueLinter.lint(document).filter { $0.ruleId == rule.id }
    }

    @Test func accessorySetupKitBeforeIOS18IsAnError() throws {
        let finding = try #require(
            Self.findings(Self.document(.bluetooth, settings: FeatureOverride(strategy: .permissionless)), .os1).first)
        #expect(finding.severity == .error)
        #expect(finding.pointer.description == "/features/bluetooth/strategy")
        #expect(finding.message.contains("iOS 18.0") && finding.message.contains("iOS 12.0"))
        // The same setting, where it applies only from iOS 18 on: no finding.
        #expect(
            Self.findings(
                Self.document(.bluetooth, settings: FeatureOverride(strategy: .permissionless), minimumOS: "18.0"),
                .os1
            ).isEmpty)
        let rule = TargetingRule(
            name: "ios18", when: TargetingCondition(os: VersionRange(">=18")),
            set: FeatureOverride(strategy: .permissionless))
        #expect(Self.findings(Self.document(.bluetooth, targeting: [rule]), .os1).isEmpty)
        let tooWide = TargetingRule(
            name: "ios17", when: TargetingCondition(os: VersionRange(">=17")),
            set: FeatureOverride(strategy: .permissionless))
        let wide = try #require(Self.findings(Self.document(.bluetooth, targeting: [tooWide]), .os1).first)
        #expect(wide.pointer.description == "/features/bluetooth/targeting/0/set/strategy")
        #expect(wide.message.contains("iOS 17.0"))
    }

    @Test func otherPathsBelowTheirOSAreInformationInVariantsToo() throws {
        let experiment = Experiment(
            key: "ask-less", feature: .photos,
            variants: [
                Variant(name: "ask", weight: 50),
                Variant(name: "picker", weight: 50, set: FeatureOverride(strategy: .permissionless)),
            ])
        let finding = try #require(Self.findings(Self.document(.photos, experiments: [experiment]), .os1).first)
        #expect(finding.severity == .info)
        #expect(finding.pointer.description == "/experiments/0/variants/1/set/strategy")
        #expect(Self.findings(Self.document(.photos, experiments: [experiment], minimumOS: "14.0"), .os1).isEmpty)
        // The contact picker exists since iOS 9, below any minimum OS.
        #expect(
            Self.findings(Self.document(.contacts, settings: FeatureOverride(strategy: .permissionless)), .os1).isEmpty)
    }

    @Test func localNetworkHasNothingToRequestDirectly() {
        #expect(
            Self.findings(Self.document(.localNetwork, settings: FeatureOverride(strategy: .direct)), .ln1).map(
                \.pointer.description) == ["/features/localNetwork/strategy"])
        #expect(Self.findings(Self.document(.camera, settings: FeatureOverride(strategy: .direct)), .ln1).isEmpty)
    }

    @Test func limitedContactsUpgradeIsFlagged() {
        let upgrade = FeatureOverride(partial: [.limited: .upgrade])
        #expect(
            Self.findings(Self.document(.contacts, settings: upgrade), .ct1).map(\.pointer.description)
                == ["/features/contacts/partial/limited"])
        let picker = FeatureOverride(partial: [.limited: .limitedPicker])
        #expect(Self.findings(Self.document(.contacts, settings: picker), .ct1).isEmpty)
    }

    @Test func locationWithoutServicesOffWordsIsFlagged() {
        #expect(Self.findings(Self.document(.locationAlways), .ls1).count == 1)
        let copy = [
            LocaleTag("en")!: CopySet([
                CopyKey(.servicesOff, .title): "Off.", CopyKey(.servicesOff, .message): "Turn them on.",
            ])
        ]
        #expect(Self.findings(Self.document(.locationAlways, settings: FeatureOverride(copy: copy)), .ls1).isEmpty)
        #expect(Self.findings(Self.document(.camera), .ls1).isEmpty)
    }

    @Test func theDemoPolicyHasOneCatalogueFindingTheOlderOSPrimes() throws {
        // The demo runs from iOS 12; PhotosPicker exists from 14, so the picker arm primes on 12 and 13 (info).
        let findings = CatalogueLinter.lint(try PolicyFixtures.demo())
        #expect(findings.map(\.ruleId) == ["OS-1"])
        #expect(findings.map(\.severity) == [.info])
        #expect(findings.map(\.pointer.description) == ["/experiments/1/variants/1/set/strategy"])
    }
}
