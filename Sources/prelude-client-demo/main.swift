// prelude-client-demo: the reference client. Plays every seed flow against a running server through
// PreludeClient and PermissionFlow with a scripted device, then checks what the server stored: each scenario's
// events (re-sent, they must all come back as duplicates) and, with an admin token, the camera experiment's
// results. Exit status 0 when everything matched, 1 on any mismatch, 2 on bad arguments.
//
//   prelude-client-demo --server http://127.0.0.1:8080 [--app demo] [--admin-token TOKEN]
import Foundation
import PreludeClient
import PreludeCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

let arguments = Array(CommandLine.arguments.dropFirst())
func option(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}
let usage = "usage: prelude-client-demo --server URL [--app demo] [--admin-token T]\n"
// Asking for help is not a mistake: the usage on standard output, exit 0.
if arguments.contains("--help") || arguments.contains("-h") {
    FileHandle.standardOutput.write(
        Data(
            (usage + "Plays every seed flow against the server and checks what it stored; the admin token "
                + "(or PRELUDE_TOKEN) adds the experiment results check. Exit 0 all matched, 1 a mismatch, "
                + "2 bad arguments.\n").utf8))
    exit(0)
}
guard let serverText = option("--server"), let server = URL(string: serverText) else {
    FileHandle.standardError.write(Data(usage.utf8))
    exit(2)
}
let app = option("--app") ?? "demo"
let adminToken = option("--admin-token") ?? ProcessInfo.processInfo.environment["PRELUDE_TOKEN"]
let run = String(UUID().uuidString.prefix(8)).lowercased()
let verifier = DemoVerifier(server: server, app: app, adminToken: adminToken)

do {
    let before = try await verifier.cameraFunnel()
    var stored: [QueuedEvent] = []
    for scenario in Scenarios.all {
        let demo = try DemoApp(
            name: scenario.name, server: server, app: app, run: run, os: scenario.os, locale: scenario.locale,
            platform: scenario.platform, start: Date().timeIntervalSince1970 - 10 * 86_400)
        let fetched = await demo.client.refresh()
        guard case .updated = fetched else { throw DemoFailure(description: "\(scenario.name): fetch \(fetched)") }
        try await scenario.play(demo)
        let events = await demo.client.queuedEvents
        let flushed = await demo.client.flush()
        guard flushed.accepted == events.count, flushed.remaining == 0, flushed.failure == nil else {
            throw DemoFailure(description: "\(scenario.name): flush \(flushed) for \(events.count) events")
        }
        try await verifier.expectStored(events, scenario: scenario.name)
        stored += events
        print("ok  \(scenario.name): \(events.map(\.type.rawValue).joined(separator: ", "))")
    }
    try await verifier.expectResults(before: before, after: try await verifier.cameraFunnel(), events: stored)
    print("all \(Scenarios.all.count) flows passed; \(stored.count) events stored")
} catch {
    FileHandle.standardError.write(Data("FAIL \(error)\n".utf8))
    exit(1)
}
