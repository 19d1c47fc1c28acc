import Foundation
import PreludeClient
import PreludeCore
import Testing

/// Many tasks use one client at once (run under TSan in CI): every event arrives once, refreshes coalesce.
@Suite struct ClientConcurrencyTests {
    let fixture = ClientFixture()

    @Test func concurrentCallsFromManyTasks() async throws {
        let service = try fixture.startService()
        defer { service.stop() }
        let client = try fixture.makeClient(port: service.port)
        // Features whose restricted state shows a screen in every arm (photos' picker arm shows the system's picker,
        // which records nothing).
        let features: [Feature] = [.camera, .microphone, .tracking, .contacts, .locationWhenInUse]
        let queued = try await withThrowingTaskGroup(of: [String].self) { group in
            for task in 0..<48 {
                group.addTask {
                    var ids: [String] = []
                    for step in 0..<10 {
                        let feature = features[(task + step) % features.count]
                        let decision = try await client.decide(feature: feature, status: .restricted)
                        if let event = try await client.record(.shown, for: decision) { ids.append(event.id) }
                        switch step % 4 {
                        case 0: await client.refresh()
                        case 1: await client.flush()
                        case 2: _ = await client.diagnostics().description
                        default: await client.didBecomeActive()
                        }
                    }
                    return ids
                }
            }
            var all: [String] = []
            for try await ids in group { all += ids }
            return all
        }
        #expect(queued.count == 48 * 10)
        #expect(Set(queued).count == queued.count)
        _ = await client.flush()
        #expect(await client.queuedEvents.isEmpty)
        let stored = try ClientFixture.storedEvents(service)
        #expect(stored.count == Int64(queued.count))
        #expect(stored.ids == Set(queued))
        // The clock never moved: every refresh after the first found the copy fresh or shared the one in flight.
        #expect(fixture.transport.requests.count { $0.0.method == "GET" } == 1)
    }
}
