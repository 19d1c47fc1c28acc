// Targets over the service's request bodies and queries: `events`, `decide`, `query`.
import PreludeCore
import PreludeHTTP

@testable import PreludeService

#if canImport(Glibc)
    import Glibc
#endif

/// The server's clock for every target: 2026-11-22T12:30:00Z.
let fuzzNowMilliseconds: Int64 = 1_795_350_600_000

/// The demo policy (config/demo-policy.json), the one the service seeds: decisions and queries are resolved in it.
let demoPolicy: PolicyDocument = {
    let path =
        String(#filePath.dropLast("Fuzz/Sources/PreludeFuzz/ServiceTargets.swift".count))
        + "config/demo-policy.json"
    guard let file = fopen(path, "rb") else { fuzzFailure("cannot open \(path)", "the demo policy is the fixture") }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = fread(&chunk, 1, chunk.count, file)
        if count <= 0 { break }
        bytes += chunk[0..<count]
    }
    let validation = PolicyValidator.validate(bytes: bytes)
    guard let document = validation.document else {
        fuzzFailure("the demo policy is not valid", validation.problems.map(\.description).joined(separator: "\n"))
    }
    return document
}()

/// The demo policy as JSON, the base of the `policy` target's merge patches.
let demoPolicyJSON = demoPolicy.jsonValue

/// The demo policy as the server serves it (its memories of locales and plain queries fill as the fuzzer runs).
let demoSnapshot = ServedPolicy(
    appID: "demo", revision: 1, document: demoPolicy, prepared: ServedPolicy.PreparedDocument(demoPolicy),
    createdAt: 0, author: "fuzz", message: nil, resolvedCacheCapacity: 256)
/// What explicit locales mean for the demo policy, for the query parsers (the served policy keeps its own).
let demoLocales = ExplicitLocaleMemo(shape: demoSnapshot.keyShape)

/// `events`: the fast-path scanner differentially against the full decoder. The scanner may give up (nil) on
/// anything; when it accepts, the full decoder must accept the same events. And `decode` (scanner, then full
/// decoder: what the route calls) must give the full decoder's verdict.
func fuzzEvents(_ bytes: UnsafeBufferPointer<UInt8>) {
    let body = Array(bytes)
    let fast = EventBatchScanner.scan(body, now: fuzzNowMilliseconds)
    let full: Result<[EventBatch.Event], ProblemDetails> = Result { () throws(ProblemDetails) in
        try EventBatch.decodeInFull(body, now: fuzzNowMilliseconds).events
    }
    let routed: Result<[EventBatch.Event], ProblemDetails> = Result { () throws(ProblemDetails) in
        try EventBatch.decode(body, now: fuzzNowMilliseconds).events
    }
    if let fast {
        guard case .success(let events) = full, events == fast else {
            fuzzFailure("the scanner accepted what the full decoder does not give", "scanner: \(fast)\nfull: \(full)")
        }
    }
    switch (full, routed) {
    case (.success(let expected), .success(let actual)) where expected == actual: break
    case (.failure(let expected), .failure(let actual))
    where expected.status == actual.status && expected.errors.map(\.pointer) == actual.errors.map(\.pointer):
        break
    default: fuzzFailure("decode and decodeInFull disagree", "decode: \(routed)\nfull: \(full)")
    }
}

/// `decide`: a decide body (plus an Accept-Language header after the first NUL byte, if any) decoded, resolved in
/// the demo policy and decided for every state, as the route does; the written answer must be JSON.
func fuzzDecide(_ bytes: UnsafeBufferPointer<UInt8>) {
    let parts = bytes.split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false)
    let body = Array(parts[0])
    let acceptLanguage = parts.count > 1 ? String(decoding: parts[1], as: UTF8.self) : nil
    guard let request = try? DecideRequest.decode(body, acceptLanguage: acceptLanguage) else { return }
    let policy = PolicyResolver.resolve(demoPolicy, context: request.context)
    let now = Instant(secondsSinceEpoch: Double(fuzzNowMilliseconds) / 1000)
    for state in request.states {
        guard let decision = try? DecisionEngine.decide(in: policy, state: state, now: now) else { continue }
        var output: [UInt8] = []
        decision.writeJSON(to: &output)
        guard let parsed = try? JSONValue(parsing: output) else {
            fuzzFailure("a decision's JSON does not parse", String(decoding: output, as: UTF8.self))
        }
        guard parsed == decision.jsonValue else {
            fuzzFailure(
                "writeJSON and jsonValue disagree",
                "written: \(String(decoding: output, as: UTF8.self))\njsonValue: \(decision.jsonValue.serialized())")
        }
    }
}

/// `query`: a query string (plus an Accept-Language header after the first NUL byte, if any), percent-decoded
/// and read as the resolved-policy endpoint reads it; a context it accepts is resolved in the demo policy.
func fuzzQuery(_ bytes: UnsafeBufferPointer<UInt8>) {
    let parts = bytes.split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false)
    let query = UnsafeBufferPointer(rebasing: parts[0])
    _ = PercentDecoding.decode(query, plusAsSpace: false)
    if let decoded = PercentDecoding.decode(query, plusAsSpace: true), decoded.utf8.contains(0) {
        fuzzFailure("a decoded NUL got through", String(decoding: query, as: UTF8.self))
    }
    guard let pairs = PercentDecoding.parseQuery(query) else { return }
    var headers = HTTPHeaders()
    if parts.count > 1 { headers.add("Accept-Language", String(decoding: parts[1], as: UTF8.self)) }
    let rawQuery = String(decoding: query, as: UTF8.self)
    // The decoded path (every query the long way), the raw path (as the server parses it: plain queries read in
    // place) and the plain-query memory must agree.
    // The raw path is for requests the server parsed, whose targets are visible ASCII (RFC 9112 §3.2: the parser
    // refuses any other byte with a 400); other bytes only go through the decoded path (their pairs, re-encoded).
    guard query.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
        let request = HTTPRequest(method: .get, path: "/v1/apps/demo/policy", query: pairs, headers: headers)
        if let context = try? PolicyQuery.decodedContext(request, locales: demoLocales).0 {
            checkResolves(context)
        }
        return
    }
    let parsed = HTTPRequest(
        method: .get, path: "/v1/apps/demo/policy", rawQuery: rawQuery, headers: headers,
        pathParameters: ["app": "demo"], remoteAddress: "127.0.0.1:1")
    let decodedPath = Result { () throws(ProblemDetails) in
        try PolicyQuery.decodedContext(parsed, locales: demoLocales)
    }
    let rawPath = Result { () throws(ProblemDetails) in
        try PolicyQuery.context(parsed, locales: demoLocales)
    }
    switch (decodedPath, rawPath) {
    case (.success(let decoded), .success(let raw)) where decoded.0 == raw.0 && decoded.1?.tag == raw.1?.tag:
        break
    case (.failure(let decoded), .failure(let raw)) where decoded == raw:
        break
    default:
        fuzzFailure("the raw query path and the decoded one disagree", rawQuery)
    }
    guard case .success(let (context, _)) = decodedPath else {
        if (try? demoSnapshot.response(for: parsed)) != nil { fuzzFailure("a refused query was answered", rawQuery) }
        return
    }
    // Twice: the first through the full computation, the second from the plain-query memory when plain.
    for _ in 0..<2 {
        let served = try? demoSnapshot.response(for: parsed)
        if served?.response !== demoSnapshot.response(for: context).response {
            fuzzFailure("the served policy answered another response than the full path's", rawQuery)
        }
    }
    checkResolves(context)
}

/// An accepted context resolves in the demo policy to JSON that parses.
private func checkResolves(_ context: ClientContext) {
    let resolved = PolicyResolver.resolve(demoPolicy, context: context)
    guard (try? JSONValue(parsing: resolved.jsonValue.serializedBytes())) != nil else {
        fuzzFailure("a resolved policy's JSON does not parse", resolved.jsonValue.serialized())
    }
}
