// The libFuzzer entry point (build with -sanitize=fuzzer,address; see scripts/fuzz.sh and docs/fuzzing.md).
// PRELUDE_FUZZ_TARGET names the parser every input goes to; each target checks, besides crashes, overflows and
// hangs (ASan, libFuzzer, Swift's own traps), a property of its parser, and calls `fuzzFailure` when it breaks.
#if canImport(Glibc)
    import Glibc
#endif

/// The targets by name: the name is also the folder of its seeds (Fuzz/corpus/<name>/) and regressions.
let fuzzTargets: [String: @Sendable (UnsafeBufferPointer<UInt8>) -> Void] = [
    "request-decoder": fuzzRequestDecoder,
    "events": fuzzEvents,
    "json": fuzzJSON,
    "policy": fuzzPolicy,
    "decide": fuzzDecide,
    "query": fuzzQuery,
    "accept-language": fuzzAcceptLanguage,
    "locale-tag": fuzzLocaleTag,
    "semver": fuzzSemanticVersion,
    "timestamp": fuzzTimestamp,
    "instant": fuzzInstant,
    "results": fuzzResults,
    "router": fuzzRouter,
    "ofrep": fuzzOFREP,
    "segment": fuzzSegmentHeaders,
    "condition": fuzzCondition,
]

/// The chosen target, read once.
let selectedTarget: @Sendable (UnsafeBufferPointer<UInt8>) -> Void = {
    let name = getenv("PRELUDE_FUZZ_TARGET").map { String(cString: $0) } ?? ""
    guard let target = fuzzTargets[name] else {
        let known = fuzzTargets.keys.sorted().joined(separator: ", ")
        fuzzFailure("unknown PRELUDE_FUZZ_TARGET '\(name)'", "set it to one of: \(known)")
    }
    return target
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    selectedTarget(UnsafeBufferPointer(start: data, count: size))
    return 0
}

/// A broken property: prints what differed and crashes, so libFuzzer keeps the input as a crash file.
func fuzzFailure(_ what: String, _ details: String) -> Never {
    let report = Array("PRELUDE FUZZ FAILURE: \(what)\n\(details)\n".utf8)
    _ = report.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    preconditionFailure(what)
}
