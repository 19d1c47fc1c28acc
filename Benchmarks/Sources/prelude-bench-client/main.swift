// The client library's costs (BENCHMARKS.md, "Client"): an offline decision (the resolver's output reused, the
// pure engine per call; and through the actor with the ledger), the memory of a client holding the demo policy,
// and a cold start from the on-disk cache (open, checksum, validate, resolve). No network: a transport serving
// the demo document from memory fills the cache once.
//
//   swift run --package-path Benchmarks -c release prelude-bench-client [config/demo-policy.json]
import Foundation
import PreludeClient
import PreludeCore

/// Serves the demo document with a tag, as the server would, without a socket.
struct MemoryTransport: PreludeTransport {
    let body: Data
    func send(_ request: TransportRequest) async throws -> TransportResponse {
        TransportResponse(
            status: 200, headers: ["ETag": "\"r1-bench\"", "Cache-Control": "public, max-age=60"], body: body)
    }
}

func residentKB() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
    else { return -1 }
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
}

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

let policyPath = CommandLine.arguments.dropFirst().first ?? "config/demo-policy.json"
let policy = try Data(contentsOf: URL(fileURLWithPath: policyPath))
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("prelude-bench-client-\(getpid())")
defer { try? FileManager.default.removeItem(at: directory) }
let context = ClientContext(
    platform: .ios, osVersion: SemanticVersion("17.4"), appVersion: SemanticVersion("2.3.0"), locale: "fr-CA",
    installId: "8C1F0A2E")
func configuration(bootstrap: Data?) -> PreludeClientConfiguration {
    var configuration = PreludeClientConfiguration(
        server: URL(string: "http://127.0.0.1:8080")!, app: "demo", storageDirectory: directory,
        bootstrapPolicy: bootstrap)
    configuration.context = context
    configuration.transport = MemoryTransport(body: policy)
    return configuration
}

// Memory: resident set before and after a client holding the demo policy (bootstrap parsed, validated, resolved).
let before = residentKB()
var client: PreludeClient? = try PreludeClient(configuration: configuration(bootstrap: policy))
_ = try await client!.decide(feature: .camera, status: .notDetermined)
let after = residentKB()
print("memory: \(after - before) kB resident for one client with the demo policy (\(before) → \(after) kB)")

// Fill the on-disk cache as a fetch would.
_ = await client!.refresh()
client = nil

// Cold start from the cache: a new client (directory, install id, cache read + checksum + validation, ledger,
// queue, resolution) and its first decision.
var starts: [Double] = []
for _ in 0..<200 {
    starts.append(
        try await {
            let start = DispatchTime.now().uptimeNanoseconds
            let fresh = try PreludeClient(configuration: configuration(bootstrap: nil))
            _ = try await fresh.decide(feature: .camera, status: .notDetermined)
            return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        }())
}
print(String(format: "cold start from the cache + first decision: median %.2f ms (200 runs)", median(starts) * 1000))

// Offline decisions: the engine alone on a resolved policy, over the demo's features and statuses.
let warm = try PreludeClient(configuration: configuration(bootstrap: nil))
let decider = await warm.offlineDecider!
let states: [ClientState] = [
    ClientState(feature: .camera, status: .notDetermined),
    ClientState(feature: .camera, status: .denied),
    ClientState(
        feature: .photos, status: .limited,
        history: [.upgrade: ScreenHistory(shownCount: 1, lastShown: Instant(secondsSinceEpoch: 1_790_000_000))]),
    ClientState(feature: .contacts, status: .notDetermined, osVersion: SemanticVersion("18.0")),
    ClientState(feature: .notifications, status: .provisional),
    ClientState(feature: .tracking, status: .notDetermined, trackingPromptShown: true),
]
let now = Instant(secondsSinceEpoch: 1_800_000_000)
var engineRuns: [Double] = []
var sink = 0
for _ in 0..<5 {
    let iterations = 200_000
    engineRuns.append(
        try seconds {
            for index in 0..<iterations {
                sink &+= try decider.decide(states[index % states.count], now: now).copy.count
            }
        } / Double(iterations))
}
print(String(format: "offline decision (engine on the resolved policy): median %.2f µs", median(engineRuns) * 1e6))

var actorRuns: [Double] = []
for _ in 0..<5 {
    let iterations = 50_000
    let start = DispatchTime.now().uptimeNanoseconds
    for index in 0..<iterations {
        let state = states[index % states.count]
        sink &+= try await warm.decide(feature: state.feature, status: state.status).copy.count
    }
    actorRuns.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 / Double(iterations))
}
print(String(format: "PreludeClient.decide (actor hop, ledger, engine): median %.2f µs", median(actorRuns) * 1e6))

var resolveRuns: [Double] = []
let document = decider.document
for _ in 0..<5 {
    let iterations = 2_000
    resolveRuns.append(
        seconds {
            for _ in 0..<iterations { sink &+= PolicyResolver.resolve(document, context: context).features.count }
        } / Double(iterations))
}
print(String(format: "resolution (once per policy or context change): median %.1f µs", median(resolveRuns) * 1e6))
// Flushing one full batch of 500 events (JSON encoding, gzip or not, the queue's atomic rewrite) to a transport
// that acknowledges it from memory: what compression costs on the device and what it saves on the wire.
final class AcknowledgingTransport: PreludeTransport, @unchecked Sendable {
    var bodyBytes = 0
    func send(_ request: TransportRequest) async throws -> TransportResponse {
        bodyBytes = request.body.count
        return TransportResponse(status: 202, body: Data(#"{"accepted":500,"duplicates":0}"#.utf8))
    }
}
for compress in [false, true] {
    var flushRuns: [Double] = []
    var wireBytes = 0
    for run in 0..<7 {
        let transport = AcknowledgingTransport()
        let flushDirectory = directory.appendingPathComponent("flush-\(compress)-\(run)")
        var flushConfiguration = PreludeClientConfiguration(
            server: URL(string: "http://127.0.0.1:8080")!, app: "demo", storageDirectory: flushDirectory,
            bootstrapPolicy: policy)
        flushConfiguration.context = context
        flushConfiguration.transport = transport
        flushConfiguration.compressEvents = compress
        let flusher = try PreludeClient(configuration: flushConfiguration)
        let decision = try await flusher.decide(feature: .camera, status: .notDetermined)
        for _ in 0..<500 { _ = try await flusher.record(.shown, for: decision) }
        let start = DispatchTime.now().uptimeNanoseconds
        _ = await flusher.flush()
        flushRuns.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        wireBytes = transport.bodyBytes
    }
    print(
        String(
            format: "flush of 500 events, %@: median %.2f ms, %d bytes on the wire", compress ? "gzip" : "plain JSON",
            median(flushRuns) * 1000, wireBytes))
}
print("(checksum \(sink))")
