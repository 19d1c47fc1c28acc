// Benchmark server: serves the peers' fixture at GET /v1/policy on PreludeHTTP, the same shape as the
// peers in ../shared/bench/peers (policy.json, or the precompressed policy.json.gz when Accept-Encoding
// contains "gzip" — the rule nginx's gzip_static and every Swift peer apply; Content-Type application/json;
// Vary: Accept-Encoding; keep-alive).
//
// Usage: prelude-bench-server [--port N] [--fixture DIR] [--worker-pool]   (or PORT / FIXTURE_DIR env)
//   --worker-pool runs the handler on the Dispatch worker pool instead of inline on the event loop.
import Dispatch
import PreludeHTTP

#if canImport(Glibc)
    import Glibc
#endif

/// Writes a line to a descriptor (stdio's globals are not concurrency-safe in Swift 6).
func say(_ line: String, to fd: Int32 = 1) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
}

func option(_ name: String, env: String, default fallback: String) -> String {
    let args = CommandLine.arguments
    if let i = args.firstIndex(of: name), i + 1 < args.count { return args[i + 1] }
    if let value = getenv(env) { return String(cString: value) }
    return fallback
}

func readFile(_ path: String) -> [UInt8] {
    guard let file = fopen(path, "rb") else {
        say("prelude-bench-server: cannot open \(path)", to: 2)
        exit(1)
    }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
        let n = fread(&chunk, 1, chunk.count, file)
        if n <= 0 { break }
        bytes.append(contentsOf: chunk[0..<n])
    }
    return bytes
}

/// Whether an Accept-Encoding value contains "gzip" (the peers' substring rule, not q-value negotiation).
func containsGzip(_ value: String) -> Bool {
    var state = 0
    for b in value.utf8 {
        let lower = b | 0x20
        switch state {
        case 0: state = lower == UInt8(ascii: "g") ? 1 : 0
        case 1: state = lower == UInt8(ascii: "z") ? 2 : (lower == UInt8(ascii: "g") ? 1 : 0)
        case 2: state = lower == UInt8(ascii: "i") ? 3 : (lower == UInt8(ascii: "g") ? 1 : 0)
        case 3: if lower == UInt8(ascii: "p") { return true } else { state = lower == UInt8(ascii: "g") ? 1 : 0 }
        default: state = 0
        }
    }
    return false
}

let port = Int(option("--port", env: "PORT", default: "8084")) ?? 8084
let fixture = option("--fixture", env: "FIXTURE_DIR", default: "fixture")
let plain = readFile(fixture + "/policy.json")
let gzipped = readFile(fixture + "/policy.json.gz")
let inline = !CommandLine.arguments.contains("--worker-pool")

let plainResponse = HTTPResponse(
    status: .ok, headers: ["Content-Type": "application/json", "Vary": "Accept-Encoding"], body: plain)
let gzipResponse = HTTPResponse(
    status: .ok,
    headers: ["Content-Type": "application/json", "Content-Encoding": "gzip", "Vary": "Accept-Encoding"],
    body: gzipped)

var router = Router()
router.add(.get, "/v1/policy", options: RouteOptions(runsInline: inline)) { request in
    if let accept = request.headers["Accept-Encoding"], containsGzip(accept) { return gzipResponse }
    return plainResponse
}

var configuration = HTTPServerConfiguration(host: "127.0.0.1", port: port)
// Like the peers' keepalive_requests 1e6: wrk keeps each connection for the whole run.
configuration.maxRequestsPerConnection = 1_000_000
let server = HTTPServer(configuration: configuration, router: router)
do {
    let bound = try server.start()
    say("prelude-bench-server listening on 127.0.0.1:\(bound) (handler \(inline ? "inline" : "on the worker pool"))")
} catch {
    say("prelude-bench-server: \(error)", to: 2)
    exit(1)
}

/// SIGTERM/SIGINT → graceful shutdown (run.sh stops peers with TERM). A plain function, so the handler
/// closures are not main-actor isolated (Dispatch runs them on a worker thread).
func installSignalHandlers(_ server: HTTPServer) -> [any DispatchSourceSignal] {
    [SIGTERM, SIGINT].map { sig in
        signal(sig, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
        source.setEventHandler { server.shutdown(gracePeriod: 2) }
        source.resume()
        return source
    }
}

let signalSources = installSignalHandlers(server)
server.waitUntilStopped()
withExtendedLifetime(signalSources) {}
