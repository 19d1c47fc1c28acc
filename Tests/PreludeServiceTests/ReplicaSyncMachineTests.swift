import PreludeCore
import Testing

@testable import PreludeService

/// The replica's sync loop and outbox forwarder as pure state machines: time and jitter are inputs, nothing waits.
@Suite struct ReplicaSyncMachineTests {
    @Test func firstPollIsNotHeldAndLaterOnesAreLongPolls() {
        var machine = ReplicaSyncMachine(pollWait: 20)
        #expect(machine.next(now: 100) == .poll(ifNoneMatch: nil, wait: 0))
        #expect(!machine.hasCopy)
        #expect(machine.lag(now: 100) == nil)
        machine.succeeded(now: 100.5, etag: "\"f-1\"")
        #expect(machine.next(now: 100.5) == .poll(ifNoneMatch: "\"f-1\"", wait: 20))
        #expect(machine.hasCopy)
        #expect(machine.lag(now: 130) == 0)
        // A 304 keeps the tag.
        machine.succeeded(now: 120.5, etag: nil)
        #expect(machine.next(now: 120.5) == .poll(ifNoneMatch: "\"f-1\"", wait: 20))
    }

    @Test func failuresBackOffExponentiallyWithJitterUpToTheCap() {
        var machine = ReplicaSyncMachine(retry: RetrySchedule(baseDelay: 0.25, maxDelay: 5))
        machine.succeeded(now: 0, etag: "\"f-1\"")
        // Jitter 1 (the largest factor): 0.25, 0.5, 1, 2, 4, 5, 5.
        var now = 10.0
        for expected in [0.25, 0.5, 1, 2, 4, 5, 5] {
            machine.failed(now: now, random: 1)
            #expect(machine.next(now: now) == .sleep(until: now + expected))
            #expect(machine.next(now: now + expected - 0.001) == .sleep(until: now + expected))
            now += expected
            // Due: poll again, not held (the replica is not known to be in step).
            #expect(machine.next(now: now) == .poll(ifNoneMatch: "\"f-1\"", wait: 0))
        }
        #expect(machine.totalFailures == 7)
        // Jitter 0 halves the delay, never less.
        machine.failed(now: now, random: 0)
        #expect(machine.next(now: now) == .sleep(until: now + 2.5))
        // A success starts the delays over.
        machine.succeeded(now: now + 3, etag: nil)
        machine.failed(now: now + 4, random: 1)
        #expect(machine.next(now: now + 4) == .sleep(until: now + 4.25))
    }

    @Test func lagCountsFromTheLastSuccessOnlyWhileOutOfStep() {
        var machine = ReplicaSyncMachine(etag: "\"f-9\"", lastSuccess: 1_000)
        // A stored copy: ready at start, lag from the stored sync until the primary answers.
        #expect(machine.hasCopy)
        #expect(machine.lag(now: 1_060) == 60)
        #expect(machine.next(now: 1_060) == .poll(ifNoneMatch: "\"f-9\"", wait: 0))
        machine.succeeded(now: 1_061, etag: nil)
        #expect(machine.lag(now: 1_070) == 0)
        machine.failed(now: 1_080, random: 0.5)
        #expect(machine.lag(now: 1_090) == 29)
    }

    @Test func retryDelayIsBoundedForHugeFailureCounts() {
        let schedule = RetrySchedule(baseDelay: 0.25, maxDelay: 5)
        #expect(schedule.delay(afterFailures: 10_000, random: 1) == 5)
        #expect(schedule.delay(afterFailures: 1, random: 0.5) == 0.1875)
    }

    /// The replica's schedule and the client's backoff are one formula (the core's `Backoff`).
    @Test func retryDelayIsTheCoresBackoff() {
        let schedule = RetrySchedule(baseDelay: 0.25, maxDelay: 5)
        let backoff = Backoff(base: 0.25, maximum: 5)
        for failures in [1, 2, 3, 5, 8, 40, 10_000] {
            for random in [0, 0.25, 0.5, 0.999] {
                #expect(
                    schedule.delay(afterFailures: failures, random: random)
                        == backoff.delay(failures: failures, unit: random))
            }
        }
    }
}

@Suite struct OutboxForwarderMachineTests {
    @Test func sendsWhileEventsWaitAndIdlesOtherwise() {
        var machine = OutboxForwarderMachine()
        #expect(machine.next(now: 0, pending: false) == .idle)
        #expect(machine.next(now: 0, pending: true) == .send)
        machine.delivered()
        #expect(machine.next(now: 0.001, pending: true) == .send)
    }

    @Test func aFailedSendBacksOffAndKeepsTheEvents() {
        var machine = OutboxForwarderMachine(retry: RetrySchedule(baseDelay: 1, maxDelay: 8))
        machine.failed(now: 50, random: 1)
        #expect(machine.next(now: 50.5, pending: true) == .sleep(until: 51))
        #expect(machine.next(now: 51, pending: true) == .send)
        machine.failed(now: 51, random: 1)
        #expect(machine.next(now: 52, pending: true) == .sleep(until: 53))
        machine.failed(now: 53, random: 1)
        machine.failed(now: 57, random: 1)
        machine.failed(now: 65, random: 1)
        #expect(machine.next(now: 65, pending: true) == .sleep(until: 73))
        #expect(machine.totalFailures == 5)
        // Nothing pending: idle, whatever the backoff says.
        #expect(machine.next(now: 66, pending: false) == .idle)
        machine.delivered()
        #expect(machine.next(now: 66, pending: true) == .send)
    }
}
