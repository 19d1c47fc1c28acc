import Foundation
import PreludeHTTP
import Testing

/// Inputs found by the libFuzzer target (Fuzz/, scripts/fuzz.sh), kept as regression vectors.
///
/// The fuzz target's property: the decoder's answer must not depend on how the bytes were split into reads.
@Suite struct RequestDecoderRegressionTests {
    typealias Outcome = RequestDecoderTests.Outcome

    static let vectors: [RequestDecoderTests.Vector] = [
        // Fuzz/regressions/request-decoder/crash-7e9d9e25…: an over-long request line containing a bare CR, ended by LF. Whole,
        // the CRLF check answered 400; in small reads the length check on the incomplete line answered 414.
        RequestDecoderTests.fail(
            "over-long request line with a bare CR before LF → 414",
            "GET /" + String(repeating: "a", count: 70) + "\r" + String(repeating: "a", count: 10) + "\n", 414),
        RequestDecoderTests.fail(
            "over-long header line ended by a bare LF → 431",
            "GET / HTTP/1.1\r\nHost: a\r\nX: " + String(repeating: "v", count: 80) + "\n\r\n", 431),
        RequestDecoderTests.fail(
            "header block over the limit ended by a bare LF → 431",
            "GET / HTTP/1.1\r\nHost: a\r\n"
                + String(repeating: "X-Long-Name: " + String(repeating: "v", count: 40) + "\r\n", count: 4)
                + "X: " + String(repeating: "v", count: 50) + "\n",
            431),
        RequestDecoderTests.fail(
            "over-long trailer line ended by a bare LF → 431",
            "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nX: "
                + String(repeating: "v", count: 80) + "\n",
            431),
        RequestDecoderTests.fail(
            "over-long chunk size line over the body limit → 400 (not 413)",
            "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nFFFF;"
                + String(repeating: "e", count: 80) + "\r\n",
            400),
    ]

    @Test(arguments: vectors) func decodesTheSameInAnyPieces(_ vector: RequestDecoderTests.Vector) {
        for piece in [Int.max / 2, 1, 2, 3, 7, 13, 64] {
            #expect(RequestDecoderTests.decode(vector.raw, piece: piece) == vector.expected, "piece \(piece)")
        }
    }

    /// Every file in Fuzz/regressions/request-decoder/ decodes to the same outcome whole and in pieces of 1…13 bytes.
    @Test func fuzzRegressionFilesDecodeTheSameInAnyPieces() throws {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Fuzz/regressions/request-decoder").standardized
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { !$0.hasPrefix(".") }
        #expect(!names.isEmpty)
        for name in names {
            let bytes = try [UInt8](Data(contentsOf: directory.appendingPathComponent(name)))
            let whole = RequestDecoderTests.decode(bytes, piece: Int.max / 2)
            for piece in 1...13 {
                #expect(RequestDecoderTests.decode(bytes, piece: piece) == whole, "\(name), piece \(piece)")
            }
        }
    }
}
