import Foundation
import PreludeHTTP
import Testing

@testable import PreludeClient

/// The client's pure-Swift gzip, decoded by zlib (the server's `Gzip.decompress`): every input comes back
/// byte for byte, matches at every length and distance class included.
@Suite struct GzipEncoderTests {
    @Test func crc32MatchesTheCheckValue() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum([]) == 0)
    }

    static func pseudoRandom(_ count: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
    }

    static let inputs: [(String, [UInt8])] = {
        let block = pseudoRandom(40_000, seed: 7)
        // Runs of every match length 3...258 separated by fresh bytes, at growing distances.
        var lengths: [UInt8] = []
        let source = pseudoRandom(300, seed: 3)
        for length in 3...258 { lengths += source.prefix(length) + pseudoRandom(5, seed: UInt64(length)) }
        let batch = (0..<400).map {
            #"{"id":"e-\#($0)","installId":"8C1F0A2E-\#($0 % 9)","type":"primeShown","feature":"camera","occurredAt":"2026-11-22T12:30:\#($0 % 60)Z"}"#
        }
        return [
            ("empty", []), ("one byte", [0x41]), ("two bytes", [0, 0xFF]),
            ("every byte value", (0...255).map { UInt8($0) }),
            ("a long run", [UInt8](repeating: 0x61, count: 100_000)), ("random", pseudoRandom(100_000, seed: 1)),
            ("a block repeated at the window's edge", block + pseudoRandom(32_768 - 40_000 % 32_768, seed: 9) + block),
            ("every match length", lengths),
            ("an event batch", Array(#"{"events":[\#(batch.joined(separator: ","))]}"#.utf8)),
        ]
    }()

    @Test(arguments: 0..<inputs.count)
    func zlibDecodesEveryInputBackExactly(index: Int) throws {
        let (name, input) = Self.inputs[index]
        let member = GzipEncoder.encode(input)
        #expect(try Gzip.decompress(member, maxSize: 1 << 24) == input, "\(name)")
    }

    @Test func anEventBatchShrinksToAFractionOfItsSize() throws {
        let (_, batch) = try #require(Self.inputs.last)
        let member = GzipEncoder.encode(batch)
        #expect(member.count * 5 < batch.count, "\(member.count) of \(batch.count) bytes")
    }
}
