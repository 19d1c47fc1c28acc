import Foundation
import PreludeClient
import Testing

@testable import PreludeService

/// Foreground handling built in: the client subscribes to its configuration's `ForegroundSignal` (on iOS, fed by
/// `didBecomeActiveNotification`) and on each activation refreshes, flushes and has every flow over it re-read its
/// statuses — the app wires nothing. The tests fire the signal themselves (`activate()`), against the real server.
@Suite struct ForegroundTests {
    let fixture = ClientFixture()

    @Test func anActivationRefreshesFlushesAndRereadsTheFlowsWithoutWiring() async throws {
        let service = try fixture.startService()
        defer { service.stop() }
        let client = try fixture.makeClient(port: service.port)
        let device = ScriptedDevice()
        let flow = PermissionFlow(client: client, device: device, usageDescriptions: PermissionFlowTests.allStrings)
        device.setStatus(.denied, for: .camera)
        #expect(try await flow.screen(for: .camera).action == .openSettings)
        try await flow.shown(.camera)
        try await flow.continued(.camera)  // to Settings
        device.setStatus(.authorized, for: .camera)
        let changes = await flow.changes()

        await fixture.foreground.activate()  // what UIApplication.didBecomeActiveNotification does on iOS

        let requests = fixture.transport.requests.map { "\($0.0.method) \($0.0.url.path) \($0.1 ?? 0)" }
        // Refresh and flush run side by side: their order is not fixed.
        #expect(requests.sorted() == ["GET /v1/apps/demo/policy/document 200", "POST /v1/apps/demo/events 202"])
        #expect(await client.diagnostics().source == .network)
        #expect(try ClientFixture.storedEvents(service).count == 2)  // settingsShown, settingsOpened
        // The flows run after the refresh and flush: the change is queued for the next flush.
        // (`#require`: without the flows' re-read the stream below would wait forever.)
        try #require(await client.queuedEvents.map(\.type.rawValue) == ["returnedGranted"])
        var iterator = changes.makeAsyncIterator()
        #expect(await iterator.next()?[.camera]?.action == .proceed)
    }

    @Test func optingOutLeavesTheForegroundToTheApp() async throws {
        let service = try fixture.startService()
        defer { service.stop() }
        var configuration = fixture.configuration(port: service.port, context: ClientContext(installId: "i-1"))
        configuration.observesForeground = false
        let client = try PreludeClient(configuration: configuration)
        #expect(fixture.foreground.subscriberCount == 0)

        await fixture.foreground.activate()
        #expect(fixture.transport.requests.isEmpty)

        try await client.appBecameActive()  // the app's own call after opting out
        #expect(fixture.transport.requests.map(\.0.method) == ["GET"])
    }

    @Test func aReleasedClientLeavesTheSignal() throws {
        var client: PreludeClient? = try fixture.makeClient(port: 9)
        #expect(fixture.foreground.subscriberCount == 1)
        _ = client
        client = nil
        #expect(fixture.foreground.subscriberCount == 0)
    }

    @Test func concurrentActivationsRecordEachChangeOnce() async throws {
        let h = try PermissionFlowTests.Harness()
        h.device.setStatus(.denied, for: .camera)
        _ = try await h.flow.screen(for: .camera)
        try await h.flow.shown(.camera)
        try await h.flow.continued(.camera)
        h.device.setStatus(.authorized, for: .camera)
        // The built-in activation, the app's own call on the client and two old-style calls on the flow (a
        // scene-phase handler and a SceneDelegate), at once.
        let (signal, client, flow) = (h.fixture.foreground, h.client, h.flow)
        async let bySignal: Void = signal.activate()
        async let byClient = client.appBecameActive()
        async let byFlow = flow.becameActive()
        async let byFlowAgain = flow.becameActive()
        _ = try await (bySignal, byClient, byFlow, byFlowAgain)
        #expect(await h.queued() == ["settingsShown", "settingsOpened", "returnedGranted"])
    }

    @Test func theShortInitializerTakesTheProductionDefaults() async throws {
        let configuration = PreludeClientConfiguration(
            server: URL(string: "http://127.0.0.1:9")!, app: "demo",
            storageDirectory: URL(fileURLWithPath: fixture.path("short")))
        #expect(configuration.observesForeground)
        #expect(configuration.foregroundSignal === ForegroundSignal.application)
        #expect(configuration.eventBatchSize == 500 && configuration.eventQueueCapacity == 10_000)

        let before = ForegroundSignal.application.subscriberCount
        var client: PreludeClient? = try PreludeClient(
            server: URL(string: "http://127.0.0.1:9")!, app: "demo",
            storageDirectory: URL(fileURLWithPath: fixture.path("short")),
            bootstrapPolicy: Data(ClientFixture.demoPolicyText.utf8))
        #expect(ForegroundSignal.application.subscriberCount == before + 1)
        #expect(try await client?.decide(feature: .camera, status: .notDetermined).action == .prime)
        #expect(await client?.diagnostics().source == .bootstrap)
        client = nil
        #expect(ForegroundSignal.application.subscriberCount == before)
    }
}
