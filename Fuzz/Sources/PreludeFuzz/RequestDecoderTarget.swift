// Target `request-decoder`: PreludeHTTP's RequestDecoder.
//
// Each input is decoded twice, as a connection would see it: delivered whole, and cut into pieces whose
// sizes come from the input's first byte. Besides crashes, overflows and hangs (ASan, libFuzzer), the
// target checks one property: the sequence of requests (or the error status) must not depend on how the
// bytes were split — the decoder is incremental, and a split-dependent answer is a smuggling hazard.
import PreludeHTTP

/// Small limits, so the fuzzer reaches the 414/431/413 paths with short inputs.
private let limits = HTTPParserLimits(
    maxRequestLineLength: 256, maxHeaderLineLength: 256, maxHeaderBytes: 1024, maxHeaderCount: 16)
private let maxBody = 512

/// Decodes `bytes` delivered in pieces of `piece` bytes; returns one line per request, or the error last.
private func decode(_ bytes: UnsafeBufferPointer<UInt8>, piece: Int) -> [String] {
    var decoder = RequestDecoder(limits: limits)
    var buffer: [UInt8] = []
    var start = 0
    var outcomes: [String] = []
    var pending: RequestHead?
    var offset = 0
    while offset < bytes.count {
        let end = min(bytes.count, offset + piece)
        buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[offset..<end]))
        offset = end
        while true {
            let step: (RequestDecoder.Event, Int)
            do {
                step = try buffer.withUnsafeBufferPointer { b throws(HTTPParseError) in
                    try decoder.next(UnsafeBufferPointer(rebasing: b[start...]))
                }
                precondition(step.1 >= 0 && step.1 <= buffer.count - start, "consumed out of range")
                start += step.1
                switch step.0 {
                case .needMore:
                    break
                case .head(let head):
                    pending = head
                    try decoder.beginBody(maxSize: maxBody)
                    continue
                case .body(let body):
                    guard let h = pending else { preconditionFailure("body without head") }
                    let query = h.query.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
                    outcomes.append(
                        "\(h.method) \(h.path) ?\(query) 1.\(h.minorVersion) \(h.headers.count) \(h.framing) "
                            + "ka=\(h.keepAlive) ec=\(h.expectsContinue) body=\(body)")
                    pending = nil
                    continue
                }
            } catch {
                outcomes.append("error \(error.status.code)")
                return outcomes
            }
            break
        }
    }
    return outcomes
}

/// The decoder must not crash, and its answer must not depend on how the bytes were split.
func fuzzRequestDecoder(_ bytes: UnsafeBufferPointer<UInt8>) {
    let size = bytes.count
    let whole = decode(bytes, piece: max(1, size))
    let piece = size > 0 ? Int(bytes[0] % 13) + 1 : 1
    let split = decode(bytes, piece: piece)
    if whole != split {
        fuzzFailure(
            "decoding depends on how the input was split",
            "whole: \(whole)\nsplit (\(piece)-byte pieces): \(split)")
    }
}
