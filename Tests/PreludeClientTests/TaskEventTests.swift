import Foundation
import PreludeClient
import PreludeCore
import PreludeTestSupport
import Testing

/// Marking a task (docs/client.md, "Marking a task"): `taskStarted` / `taskCompleted` under the install's arm,
/// through the durable queue like every other event.
@Suite struct TaskEventTests {
    @Test func aTaskIsMarkedUnderTheDecisionsArm() async throws {
        let h = try PermissionFlowTests.Harness()
        // No screen yet: the flow decides (recording nothing else) so the start carries the arm.
        let started = try #require(try await h.flow.taskStarted(.photos, task: "attach-photo"))
        #expect(await h.queued() == ["taskStarted"])
        let decision = try #require(await h.flow.current(.photos))
        let variant = try #require(decision.variant)
        #expect(variant.experiment == "photos-ask-vs-picker")
        #expect(started.experiment == variant.experiment && started.variant == variant.variant)
        #expect(started.feature == .photos && started.task == "attach-photo")
        let completed = try #require(try await h.flow.taskCompleted(.photos, task: "attach-photo"))
        #expect(completed.variant == variant.variant && completed.type == .taskCompleted)
        #expect(await h.queued() == ["taskStarted", "taskCompleted"])
    }

    @Test func anInvalidTaskNameQueuesNothing() async throws {
        let h = try PermissionFlowTests.Harness()
        await #expect(throws: PreludeClientError.invalidTaskName("attach photo")) {
            try await h.flow.taskStarted(.photos, task: "attach photo")
        }
        await #expect(throws: PreludeClientError.invalidTaskName("")) {
            try await h.flow.taskStarted(.photos, task: "")
        }
        #expect(await h.queued().isEmpty)
    }

    /// The queue's guarantees are unchanged: a task event is on disk before `recordTask` returns, survives a new
    /// client over the same storage, and other events encode exactly as before (no `task` member).
    @Test func taskEventsAreDurableAndOthersUnchanged() async throws {
        let h = try PermissionFlowTests.Harness()
        let decision = try await h.flow.screen(for: .camera)
        try await h.client.recordTask(.started, task: "scan-document", for: decision)
        try await h.flow.shown(.camera)
        let reopened = try h.fixture.makeClient(port: 9)
        let events = await reopened.queuedEvents
        #expect(events.map(\.type) == [.taskStarted, .primeShown])
        #expect(events.map(\.task) == ["scan-document", nil])
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let shown = String(decoding: try encoder.encode(events[1]), as: UTF8.self)
        #expect(!shown.contains("task"))
        let task = String(decoding: try encoder.encode(events[0]), as: UTF8.self)
        #expect(task.contains("\"task\":\"scan-document\""))
    }
}
