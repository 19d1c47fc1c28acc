// Client half of the client's kill -9 test (Tests/PreludeClientTests/ClientCrashTests.swift). Opens a
// PreludeClient on STORAGE, then records COUNT restricted-notice showings (each queues one event, fsynced before
// `record` returns) and flushes after every BATCH of them; prints `queued <id>` after each record returns (the
// acknowledgement to the app) and `flushing` before and `flushed <accepted> <duplicates> <remaining>` after each flush. With COUNT 0 it
// only flushes until the queue is empty. The test SIGKILLs it at arbitrary points and checks the server ends with
// every acknowledged event exactly once. With a sixth argument `hold`, it prints `answered` once the server has
// answered an events batch and then stops before the client can remove that batch from its queue, so the test can
// kill it exactly in that window (the server has the batch, the client will send it again).
import Foundation
import PreludeClient
import PreludeCore

let arguments = CommandLine.arguments
guard arguments.count == 6 || (arguments.count == 7 && arguments[6] == "hold"), let server = URL(string: arguments[1]),
    let count = Int(arguments[4]),
    let batch = Int(arguments[5])
else {
    FileHandle.standardError.write(
        Data("usage: prelude-client-crashtest SERVER STORAGE BOOTSTRAP COUNT BATCH [hold]\n".utf8))
    exit(64)
}

func say(_ line: String) {
    // One write(2) per line, no stdio buffer: once it returns, the line is in the pipe even if we die next.
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
}

/// The production transport, except that after the server answers an events batch it announces `answered` and
/// never returns, so the queue still holds the batch the server stored.
struct HoldAfterEventsAnswer: PreludeTransport {
    let real = URLSessionTransport()
    func send(_ request: TransportRequest) async throws -> TransportResponse {
        let response = try await real.send(request)
        if request.method == "POST", request.url.path.hasSuffix("/events") {
            say("answered")
            while true { sleep(60) }
        }
        return response
    }
}

do {
    let transport: any PreludeTransport = arguments.count == 7 ? HoldAfterEventsAnswer() : URLSessionTransport()
    var configuration = PreludeClientConfiguration(
        server: server, app: "demo", storageDirectory: URL(fileURLWithPath: arguments[2]),
        bootstrapPolicy: try Data(contentsOf: URL(fileURLWithPath: arguments[3])))
    configuration.context = ClientContext(
        platform: .ios, osVersion: SemanticVersion("17.4"), installId: "crash-install")
    configuration.transport = transport
    configuration.flushBackoff = Backoff(base: 0.001, maximum: 0.001)
    let client = try PreludeClient(configuration: configuration)
    if count == 0 {
        while true {
            let result = await client.flush()
            say("flushed \(result.accepted) \(result.duplicates) \(result.remaining)")
            if result.remaining == 0 { break }
        }
        exit(0)
    }
    for index in 1...count {
        let decision = try await client.decide(feature: .camera, status: .restricted)
        if let event = try await client.record(.shown, for: decision) { say("queued \(event.id)") }
        if index % batch == 0 {
            say("flushing")
            let result = await client.flush()
            say("flushed \(result.accepted) \(result.duplicates) \(result.remaining)")
        }
    }
    exit(0)
} catch {
    FileHandle.standardError.write(Data("prelude-client-crashtest: \(error)\n".utf8))
    exit(1)
}
