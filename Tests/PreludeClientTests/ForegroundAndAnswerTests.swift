import Foundation
import PreludeClient
import Testing

/// The caller's side: the flow's answer that is never missing (source and fallback). The foreground is
/// ForegroundTests.
@Suite struct ForegroundAndAnswerTests {
    typealias Harness = PermissionFlowTests.Harness

    @Test func theAnswerSaysItCameFromTheBootstrap() async throws {
        let h = try Harness()
        let answer = await h.flow.answer(for: .camera)
        #expect(answer.source == .bootstrap)
        #expect(answer.fallbackReason == nil)
        #expect(answer.decision == (try await h.flow.screen(for: .camera)))
    }

    @Test func aFeatureThePolicyLacksGetsTheBuiltInAnswer() async throws {
        let h = try Harness()
        h.device.setStatus(.notDetermined, for: .reminders)
        let answer = await h.flow.answer(for: .reminders)  // the demo policy does not configure reminders
        #expect(answer.source == .builtInFallback)
        #expect(answer.decision.action == .systemPrompt)
        #expect(answer.fallbackReason?.isEmpty == false)
        // The flow goes on from the fallback as from any decision: the alert, its answer, its events.
        try await h.flow.shown(.reminders)
        h.device.answerNextRequest(.reminders, with: .authorized)
        _ = try? await h.flow.continued(.reminders)
        #expect(h.device.requests == [.reminders])
    }

    @Test(arguments: [
        (AuthorizationStatus.notDetermined, true, DecisionAction.systemPrompt),
        (.authorized, true, .proceed), (.limited, true, .proceed), (.denied, true, .deniedScreen),
        (.restricted, true, .restrictedNotice), (.notDetermined, false, .unsupported),
    ])
    func builtInAnswers(status: AuthorizationStatus, available: Bool, action: DecisionAction) {
        #expect(ScreenAnswer.builtIn(.camera, status: status, available: available).action == action)
    }
}
