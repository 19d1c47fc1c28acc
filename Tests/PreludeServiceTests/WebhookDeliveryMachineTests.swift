import PreludeStore
import Testing

@testable import PreludeService

/// The delivery state machine: what follows each attempt, with time and jitter as inputs.
@Suite struct WebhookDeliveryMachineTests {
    let machine = WebhookDeliveryMachine(maxAttempts: 4)

    @Test func aTwoHundredIsDelivered() {
        for status in [200, 202, 204, 299] {
            let (resolution, error) = machine.resolve(
                runAttempt: 1, outcome: .response(status: status, retryAfter: nil), now: 0, random: 0.3)
            #expect(resolution == .delivered && error == nil)
        }
    }

    @Test func failuresBackOffWithTheServiceFormulaUntilTheAttemptsAreSpent() {
        // 5 s doubling, scaled by 0.5 + 0.5 × random: with random 1 the nominal delays 5, 10, 20 s.
        var times: [WebhookStore.Resolution] = []
        for attempt in 1...3 {
            times.append(
                machine.resolve(runAttempt: attempt, outcome: .transportFailure("refused"), now: 1000, random: 1).0)
        }
        #expect(times == [.retry(at: 6000), .retry(at: 11000), .retry(at: 21000)])
        let half = machine.resolve(runAttempt: 1, outcome: .response(status: 503, retryAfter: nil), now: 0, random: 0)
        #expect(half.0 == .retry(at: 2500) && half.error == "the receiver answered 503")
        let last = machine.resolve(runAttempt: 4, outcome: .response(status: 500, retryAfter: nil), now: 0, random: 0)
        #expect(last.0 == .failed && last.error?.contains("gave up after 4 attempts") == true)
    }

    @Test func retryAfterLengthensButNeverExceedsTheLongestDelay() {
        let longer = machine.resolve(runAttempt: 1, outcome: .response(status: 429, retryAfter: 60), now: 0, random: 1)
        #expect(longer.0 == .retry(at: 60000))
        let shorter = machine.resolve(runAttempt: 1, outcome: .response(status: 429, retryAfter: 1), now: 0, random: 1)
        #expect(shorter.0 == .retry(at: 5000))
        let capped = machine.resolve(
            runAttempt: 1, outcome: .response(status: 503, retryAfter: 1e9), now: 0, random: 1)
        #expect(capped.0 == .retry(at: 3_600_000))
    }

    @Test func redirectsAreFailuresGoneDisablesRefusedNeverRetries() {
        let redirect = machine.resolve(
            runAttempt: 1, outcome: .response(status: 302, retryAfter: nil), now: 0, random: 1)
        #expect(redirect.0 == .retry(at: 5000) && redirect.error?.contains("redirects are not followed") == true)
        let gone = machine.resolve(runAttempt: 1, outcome: .response(status: 410, retryAfter: nil), now: 0, random: 1)
        guard case .failedDisablingWebhook = gone.0 else {
            Issue.record("410 should disable: \(gone)")
            return
        }
        let refused = machine.resolve(runAttempt: 1, outcome: .refused("host not allowed"), now: 0, random: 1)
        #expect(refused.0 == .failed && refused.error == "host not allowed")
    }
}
