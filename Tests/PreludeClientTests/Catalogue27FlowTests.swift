import Foundation
import PreludeClient
import PreludeCore
import Testing

/// The iOS 27 catalogue through the flow: tracking's expanded request left without a decision, the system's re-ask
/// in an EU storefront, health's request that claims no read answer, an app-level consent granted and declined on
/// its own screen, and the purpose-string review.
@Suite struct Catalogue27FlowTests {
    typealias Harness = PermissionFlowTests.Harness

    static func context(os: String, region: String?) -> ClientContext {
        ClientContext(
            platform: .ios, osVersion: SemanticVersion(os), appVersion: SemanticVersion("2.3.0"), locale: "en",
            installId: "install-1", region: region.flatMap(StorefrontRegion.init))
    }

    @Test func trackingLeftWithoutADecisionIsAnEventAndNothingElse() async throws {
        let h = try Harness(context: Self.context(os: "27.2", region: "FRA"))
        let prime = try await h.flow.screen(for: .tracking)
        #expect(prime.action == .prime)
        try await h.flow.shown(.tracking)
        // No answer scripted: the request returns with the status still notDetermined ("Additional Information").
        let next = try await h.flow.continued(.tracking)
        #expect(await h.queued() == ["primeShown", "primeAccepted", "systemExitedWithoutDecision"])
        // Not an answer: no prompt in the ledger (with one, this EU storefront would read `systemReask`), so the
        // next decision is the one before the request.
        #expect(next?.action == .systemPrompt && next?.reason == .primeAlreadyAccepted)
    }

    @Test func theSystemsEUReaskIsAskedAgainWithoutPriming() async throws {
        let h = try Harness(context: Self.context(os: "27.2", region: "DEU"))
        _ = try await h.flow.screen(for: .tracking)
        try await h.flow.shown(.tracking)
        h.device.answerNextRequest(.tracking, with: .denied)
        let denied = try await h.flow.continued(.tracking)
        #expect(denied?.action == .deniedScreen && denied?.reason == .systemOwnsReask)
        // A year later the system reopened the question: the status reads notDetermined again.
        h.device.setStatus(.notDetermined, for: .tracking)
        let reask = try await h.flow.screen(for: .tracking)
        #expect(reask.action == .systemPrompt && reask.reason == .systemReask && reask.screen == nil)
        // Outside the EU the same history is final.
        let us = try Harness(context: Self.context(os: "27.2", region: "USA"))
        _ = try await us.flow.screen(for: .tracking)
        try await us.flow.shown(.tracking)
        us.device.answerNextRequest(.tracking, with: .denied)
        _ = try await us.flow.continued(.tracking)
        us.device.setStatus(.notDetermined, for: .tracking)
        #expect(try await us.flow.screen(for: .tracking).reason == .trackingAskedOnce)
    }

    @Test(arguments: [AuthorizationStatus.notDetermined, .authorized, .denied])
    func healthsRequestClaimsNoReadAnswer(sharingStatus: AuthorizationStatus) async throws {
        // Whatever sharing (write) status the app reads after the request, what was granted for reading is unknown:
        // the prompt is recorded as having happened, never as a grant or a refusal.
        let h = try Harness(context: Self.context(os: "27.0", region: nil))
        #expect(try await h.flow.screen(for: .health).action == .prime)
        try await h.flow.shown(.health)
        if sharingStatus != .notDetermined { h.device.answerNextRequest(.health, with: sharingStatus) }
        let next = try await h.flow.continued(.health)
        #expect(await h.queued() == ["primeShown", "primeAccepted", "systemPromptCompleted"])
        #expect(await h.client.cadenceLedger.systemPromptShown(.health))
        if sharingStatus == .notDetermined {
            #expect(next?.action == .proceed && next?.reason == .statusNotKnowable)
        }
        #expect(h.device.requests == [.health])
    }

    @Test func healthsLimitedHistoryIsTheOneGrantTheAppCanKnow() async throws {
        let h = try Harness(context: Self.context(os: "27.0", region: nil))
        _ = try await h.flow.screen(for: .health)
        try await h.flow.shown(.health)
        h.device.answerNextRequest(.health, with: .limited)
        let next = try await h.flow.continued(.health)
        #expect(next?.action == .proceed && next?.reason == .partialProceed)
        #expect(await h.queued() == ["primeShown", "primeAccepted", "systemGranted"])
    }

    @Test func aConsentIsGrantedOnItsOwnScreenAndRecordedByTheLedger() async throws {
        let h = try Harness()
        let screen = try await h.flow.screen(for: .aiDataSharing)
        #expect(screen.action == .prime && screen.reason == .consentScreen)
        #expect(screen.copy[.cancelLabel] != nil, "a visible way to decline")
        try await h.flow.shown(.aiDataSharing)
        let next = try await h.flow.continued(.aiDataSharing)
        #expect(next?.action == .proceed && next?.reason == .consentGranted)
        #expect(h.device.requests.isEmpty, "no OS prompt behind a consent")
        #expect(await h.queued() == ["primeShown", "primeAccepted", "systemGranted"])
        #expect(await h.client.consentStatus(.aiDataSharing) == .authorized)
        // Withdrawn from the app's own settings: declined from now on.
        try await h.client.setConsent(.aiDataSharing, granted: false)
        #expect(try await h.flow.screen(for: .aiDataSharing).reason == .consentDeclined)
    }

    @Test func aDeclinedConsentIsAnAnswerNeverReasked() async throws {
        let h = try Harness()
        _ = try await h.flow.screen(for: .aiDataSharing)
        try await h.flow.shown(.aiDataSharing)
        let next = try await h.flow.declined(.aiDataSharing)
        #expect(next?.action == .deniedScreen && next?.reason == .consentDeclined)
        #expect(await h.queued() == ["primeShown", "primeDismissed", "systemDenied"])
        #expect(await h.client.consentStatus(.aiDataSharing) == .denied)
        #expect(try await h.flow.screen(for: .aiDataSharing).action == .deniedScreen)
    }

    @Test func theMarkdownTrackingStringIsOptionalAndReviewed() {
        let key = PurposeStringKey.trackingMarkdown
        #expect(UsageDescriptionCheck.optionalKeys(for: .tracking, osVersion: SemanticVersion("27.2")) == [key])
        #expect(UsageDescriptionCheck.optionalKeys(for: .tracking, osVersion: SemanticVersion("27.1")).isEmpty)
        #expect(UsageDescriptionCheck.optionalKeys(for: .camera).isEmpty)
        // Optional: the fallback alone may request.
        let fallbackOnly = UsageDescriptionCheck(strings: [
            "NSUserTrackingUsageDescription": "We use your activity in other apps to show you more relevant ads."
        ])
        #expect(fallbackOnly.canRequest(.tracking, osVersion: SemanticVersion("27.2")))
        #expect(fallbackOnly.reviewFindings(for: .tracking, osVersion: SemanticVersion("27.2")).isEmpty)
        // A link in the Markdown string is outside the sheet's subset.
        let withLink = UsageDescriptionCheck(strings: [
            "NSUserTrackingUsageDescription": "We use your activity in other apps to show you more relevant ads.",
            key: "We show **ads**. We use your activity to make them relevant; see [our policy](https://example.com).",
        ])
        let findings = withLink.reviewFindings(for: .tracking, osVersion: SemanticVersion("27.2"))
        #expect(findings.map(\.ruleId) == ["PS-11"])
    }

    @Test func aGenericPurposeStringIsFlaggedWithAppReviewsReason() async throws {
        let generic = UsageDescriptionCheck(strings: ["NSCameraUsageDescription": "This app needs access."])
        let findings = generic.reviewFindings(for: .camera)
        #expect(!findings.isEmpty)
        #expect(findings.contains { $0.message.localizedCaseInsensitiveContains("example") })
        let h = try Harness(strings: generic)
        _ = try await h.flow.screen(for: .camera)
        #expect(await h.flow.purposeStringFindings(.camera) == findings)
    }
}
