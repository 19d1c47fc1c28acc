import Foundation
import PreludeClient
import PreludeCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Checks what the server stored: events through the public API (a re-sent event the server already has comes
/// back as a duplicate), experiment results through the admin API.
struct DemoVerifier {
    let server: URL
    let app: String
    let adminToken: String?
    let transport = URLSessionTransport(timeout: 10)

    /// Re-sends `events` with their ids: every one must be a duplicate, so every one is stored.
    func expectStored(_ events: [QueuedEvent], scenario: String) async throws {
        guard !events.isEmpty else { return }
        let body = try JSONEncoder().encode(["events": events])
        let response = try await transport.send(
            TransportRequest(
                method: "POST", url: server.appendingPathComponent("v1/apps/\(app)/events"),
                headers: ["Content-Type": "application/json"], body: body))
        let answer = try? JSONValue(parsing: [UInt8](response.body))
        guard response.status == 202, answer?["accepted"]?.intValue == 0,
            answer?["duplicates"]?.intValue == events.count
        else {
            throw DemoFailure(
                description: "\(scenario): re-sent \(events.count) events, got \(response.status) "
                    + String(decoding: response.body, as: UTF8.self))
        }
    }

    /// The camera experiment's funnel summed over its variants (nil without an admin token).
    func cameraFunnel() async throws -> [String: Int]? {
        guard let adminToken else { return nil }
        let url = server.appendingPathComponent("v1/admin/apps/\(app)/experiments/camera-prime-copy/results")
        let response = try await transport.send(
            TransportRequest(method: "GET", url: url, headers: ["Authorization": "Bearer \(adminToken)"]))
        if response.status == 404 { return [:] }  // no event for the experiment yet
        guard response.status == 200, let report = try? JSONValue(parsing: [UInt8](response.body)),
            let variants = report["variants"]?.arrayValue
        else {
            throw DemoFailure(
                description: "results: \(response.status) " + String(decoding: response.body, as: UTF8.self))
        }
        var totals: [String: Int] = [:]
        for variant in variants {
            for (field, value) in variant["funnel"]?.objectValue ?? JSONObject() {
                totals[field, default: 0] += value.intValue ?? 0
            }
        }
        return totals
    }

    /// The results moved by exactly the installs the demo's variant-tagged camera events name (docs/results.md:
    /// unique installs per step).
    func expectResults(before: [String: Int]?, after: [String: Int]?, events: [QueuedEvent]) async throws {
        guard let before, let after else {
            print("(no admin token: experiment results not checked)")
            return
        }
        let tagged = events.filter { $0.feature == .camera && $0.experiment == "camera-prime-copy" }
        func installs(_ types: Set<AnalyticsEvent>?) -> Int {
            Set(tagged.filter { types?.contains($0.type) ?? true }.map(\.installId)).count
        }
        let expected: [String: Int] = [
            "exposed": installs(nil), "primeShown": installs([.primeShown]),
            "primeContinued": installs([.primeAccepted]), "primeDismissed": installs([.primeDismissed]),
            "systemGranted": installs([.systemGranted]), "systemDenied": installs([.systemDenied]),
            "settingsOpened": installs([.settingsOpened]), "returnedGranted": installs([.returnedGranted]),
            "granted": installs([.systemGranted, .returnedGranted]),
        ]
        for (field, delta) in expected.sorted(by: { $0.key < $1.key }) {
            let moved = (after[field] ?? 0) - (before[field] ?? 0)
            guard moved == delta else {
                throw DemoFailure(description: "results: \(field) moved by \(moved), expected \(delta)")
            }
        }
        print(
            "ok  camera-prime-copy results: \(expected.sorted(by: { $0.key < $1.key }).map { "\($0.key) +\($0.value)" }.joined(separator: ", "))"
        )
    }
}
