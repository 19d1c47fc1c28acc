import Foundation
import PreludeClient
import PreludeCore
import Testing

@testable import PreludeService

/// The client against the real server over real sockets: bootstrap, fetch, 304, server down and back.
@Suite struct ClientLiveTests {
    let fixture = ClientFixture()

    @Test func firstLaunchOfflineDecidesFromTheBootstrapPolicy() async throws {
        let client = try fixture.makeClient(port: try ClientFixture.closedPort())
        let decision = try await client.decide(feature: .camera, status: .notDetermined)
        #expect(decision.action == .prime)
        #expect(decision.copy[.title]?.isEmpty == false)
        #expect(await client.diagnostics().source == .bootstrap)

        let result = await client.refresh()
        guard case .networkError = result else {
            Issue.record("expected a network error, got \(result)")
            return
        }
        // Backing off: the next attempt waits, and the bootstrap policy keeps deciding.
        #expect(await client.refresh() == .skipped)
        #expect(try await client.decide(feature: .camera, status: .denied).action == .openSettings)
        let diagnostics = await client.diagnostics()
        #expect(diagnostics.nextFetchNotBefore != nil)
        #expect(diagnostics.description.contains("network error"))
    }

    @Test func withoutBootstrapOrCacheThereIsNoPolicyUntilTheFirstFetch() async throws {
        let service = try fixture.startService()
        defer { service.stop() }
        let client = try fixture.makeClient(port: service.port, bootstrap: false)
        await #expect(throws: PreludeClientError.noPolicy) {
            try await client.decide(feature: .camera, status: .notDetermined)
        }
        #expect(await client.refresh() == .updated(revision: 1))
        #expect(try await client.decide(feature: .camera, status: .notDetermined).action == .prime)
    }

    @Test func fetchesThenRevalidatesWithETagAndHonoursMaxAge() async throws {
        let service = try fixture.startService()
        defer { service.stop() }
        let client = try fixture.makeClient(port: service.port)
        #expect(await client.refresh() == .updated(revision: 1))
        let etag = try #require(await client.diagnostics().etag)
        #expect(await client.diagnostics().freshness == .fresh)

        // Fresh for max-age (60 s by default): neither a refresh nor a foreground asks the server.
        fixture.clock.advance(59)
        #expect(await client.refresh() == .skipped)
        await client.didBecomeActive()
        #expect(fixture.transport.requests.count { $0.0.method == "GET" } == 1)

        fixture.clock.advance(2)
        #expect(await client.diagnostics().freshness == .staleWhileRevalidate)
        #expect(await client.refresh() == .notModified)
        let conditional = try #require(fixture.transport.requests.last?.0)
        #expect(conditional.headers["If-None-Match"] == etag)
        // Every policy fetch names the client's release, the server's own number (one release, CHANGELOG.md).
        #expect(PreludeClient.version == ServiceInfo.version)
        let fetches = fixture.transport.requests.filter { $0.0.method == "GET" }.map(\.0)
        #expect(
            fetches.count == 2 && fetches.allSatisfy { $0.headers["Prelude-Client-Version"] == PreludeClient.version })
        #expect(fixture.transport.requests.last?.1 == 304)
        #expect(await client.diagnostics().freshness == .fresh)

        // A new revision: the next due refresh serves it, and decisions use its copy.
        try service.policyStore.commit(
            app: "demo", document: ClientFixture.demoDocument(cameraTitle: "Scan documents with the camera"),
            author: "test", action: "replace", message: nil, precondition: nil, auditDetail: .null)
        fixture.clock.advance(61)
        #expect(await client.refresh() == .updated(revision: 2))
        let decision = try await client.decide(feature: .camera, status: .notDetermined)
        #expect(decision.copy[.title] == "Scan documents with the camera")
    }

    @Test func aRelaunchStartsFromTheCacheAndKeepsItsETag() async throws {
        let service = try fixture.startService()
        defer { service.stop() }
        let first = try fixture.makeClient(port: service.port)
        #expect(await first.refresh() == .updated(revision: 1))
        let etag = await first.diagnostics().etag

        // An app upgrade keeps the cache: it is keyed by server, app and schema version, not app version.
        let second = try fixture.makeClient(port: service.port)
        let diagnostics = await second.diagnostics()
        #expect(diagnostics.source == .cache)
        #expect(diagnostics.revision == 1)
        #expect(diagnostics.etag == etag)
        #expect(await second.refresh() == .skipped)  // still fresh from the first launch's fetch
        fixture.clock.advance(120)
        #expect(await second.refresh() == .notModified)
    }

    @Test func serverDownKeepsDecidingAndQueuedEventsArriveOnceWhenItIsBack() async throws {
        var service = try fixture.startService()
        let port = service.port
        let client = try fixture.makeClient(port: port)
        #expect(await client.refresh() == .updated(revision: 1))
        service.stop()

        // Down: the stale policy keeps deciding; events wait on disk.
        fixture.clock.advance(3600)
        guard case .networkError = await client.refresh() else {
            Issue.record("the refresh should fail while the server is down")
            return
        }
        var queued: [String] = []
        for status in [AuthorizationStatus.notDetermined, .denied, .restricted] {
            let decision = try await client.decide(feature: .camera, status: status)
            if let event = try await client.record(.shown, for: decision) { queued.append(event.id) }
        }
        #expect(queued.count == 3)
        let failed = await client.flush()
        #expect(failed.failure != nil)
        #expect(failed.remaining == 3)
        #expect(await client.diagnostics().freshness == .staleIfError)
        // Backing off: an immediate second flush does not even try.
        let requestsBefore = fixture.transport.requests.count
        #expect(await client.flush().remaining == 3)
        #expect(fixture.transport.requests.count == requestsBefore)

        // Back, on the same port and database.
        service = try fixture.startService(port: port)
        defer { service.stop() }
        fixture.clock.advance(3600)
        let delivered = await client.flush()
        #expect(delivered.failure == nil)
        #expect(delivered.accepted == 3)
        #expect(delivered.remaining == 0)
        #expect(await client.refresh() == .notModified)
        let stored = try ClientFixture.storedEvents(service)
        #expect(stored.count == 3)
        #expect(stored.ids == Set(queued))
        #expect(await client.flush().accepted == 0)  // nothing left, nothing resent
    }

    @Test func anEventTheServerRefusesIsDroppedAndCountedAndTheRestDelivered() async throws {
        let service = try fixture.startService()
        defer { service.stop() }
        let client = try fixture.makeClient(port: service.port)
        let decision = try await client.decide(feature: .camera, status: .restricted)
        let good = try #require(try await client.record(.shown, for: decision))
        // A device clock two days ahead: the server refuses that event (occurredAt), by its pointer.
        fixture.clock.advance(2 * 86400)
        try await client.record(.shown, for: decision)
        fixture.clock.advance(-2 * 86400)
        let late = try #require(try await client.record(.shown, for: decision))

        let result = await client.flush()
        #expect(result.rejected == 1)
        #expect(result.accepted == 2)
        #expect(result.remaining == 0)
        #expect(try ClientFixture.storedEvents(service).ids == [good.id, late.id])
        #expect(await client.diagnostics().droppedEvents == 1)
    }

    @Test func theLedgerHoldsCadenceAcrossLaunches() async throws {
        let port = try ClientFixture.closedPort()
        let client = try fixture.makeClient(port: port)
        let prime = try await client.decide(feature: .camera, status: .notDetermined)
        #expect(prime.action == .prime)
        try await client.record(.shown, for: prime)
        try await client.record(.dismissed, for: prime)
        #expect(try await client.decide(feature: .camera, status: .notDetermined).action == .wait)

        // A new process: the ledger was persisted, so the priming screen is still not due.
        let relaunched = try fixture.makeClient(port: port)
        let waiting = try await relaunched.decide(feature: .camera, status: .notDetermined)
        #expect(waiting.action == .wait)
        #expect(await relaunched.cadenceLedger.history(of: .camera, .prime).lastOutcome == .dismissed)
        // 72 h later (the demo's prime interval) it is.
        fixture.clock.advance(72 * 3600)
        #expect(try await relaunched.decide(feature: .camera, status: .notDetermined).action == .prime)

        // QA reset: every screen eligible again at once.
        fixture.clock.advance(-72 * 3600)
        try await relaunched.resetLedger()
        #expect(try await relaunched.decide(feature: .camera, status: .notDetermined).action == .prime)
        #expect(await relaunched.queuedEvents.map(\.type) == [.primeShown, .primeDismissed])
    }

    @Test func trackingAsksOnceThenNeverAgain() async throws {
        let client = try fixture.makeClient(port: try ClientFixture.closedPort())
        let first = try await client.decide(feature: .tracking, status: .notDetermined)
        try await client.record(.denied, for: first)
        let after = try await client.decide(feature: .tracking, status: .notDetermined)
        #expect(after.action == .deniedScreen)
        #expect(after.reason == .trackingAskedOnce)
    }

    @Test func qaOverridesForceLocaleAndVariant() async throws {
        let client = try fixture.makeClient(port: try ClientFixture.closedPort())
        await client.forceLocale("fr")
        let french = try await client.decide(feature: .camera, status: .denied)
        #expect(french.copy[.openLabel] == "Ouvrir Réglages")
        for variant in ["control", "short-copy"] {
            await client.forceVariant(variant, experiment: "camera-prime-copy")
            let decision = try await client.decide(feature: .camera, status: .notDetermined)
            #expect(decision.variant == VariantAssignment(experiment: "camera-prime-copy", variant: variant))
        }
        let description = await client.diagnostics().description
        #expect(description.contains("QA overrides: locale fr, variants [camera-prime-copy=short-copy]"))
    }
}
