/// Raw DEFLATE (RFC 1951): LZ77 matching over a 32 KiB window with hash chains, coded with the fixed Huffman codes
/// (§3.2.6) in one final block. Pure Swift, so the client compresses event batches on every platform without zlib
/// or an Apple-only API; JSON batches (repeated member names and values) shrink to a fraction of their size.
enum Deflater {
    private static let windowSize = 32_768
    private static let minimumMatch = 3
    private static let maximumMatch = 258
    private static let hashBits = 15
    /// How many earlier positions with the same hash are tried per position: bounds the work on repetitive input.
    private static let maximumChain = 64

    // RFC 1951 §3.2.5: the base value and extra bits of each length code (257–285) and distance code (0–29).
    private static let lengthBase: [Int] = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227,
        258,
    ]
    private static let lengthExtraBits: [Int] = [
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
    ]
    private static let distanceBase: [Int] = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097,
        6145, 8193, 12289, 16385, 24577,
    ]
    private static let distanceExtraBits: [Int] = [
        0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
    ]

    /// `input` as one final fixed-Huffman DEFLATE block.
    static func compress(_ input: [UInt8]) -> [UInt8] {
        var writer = BitWriter()
        writer.write(1, bitCount: 1)  // BFINAL
        writer.write(1, bitCount: 2)  // BTYPE 01: fixed Huffman codes
        input.withUnsafeBufferPointer { bytes in
            let count = bytes.count
            var head = [Int](repeating: -1, count: 1 << hashBits)
            var previous = [Int](repeating: -1, count: windowSize)
            func hash(at position: Int) -> Int {
                (Int(bytes[position]) << 10 ^ Int(bytes[position + 1]) << 5 ^ Int(bytes[position + 2]))
                    & ((1 << hashBits) - 1)
            }
            func insert(_ position: Int) {
                let key = hash(at: position)
                previous[position & (windowSize - 1)] = head[key]
                head[key] = position
            }
            var position = 0
            while position < count {
                var bestLength = 0
                var bestDistance = 0
                if position + minimumMatch <= count {
                    let limit = min(maximumMatch, count - position)
                    var candidate = head[hash(at: position)]
                    var tries = maximumChain
                    // Chains only hold earlier positions; one further back than the window ends the search (its
                    // slot in `previous` may already hold a newer position).
                    while candidate >= 0, position - candidate <= windowSize, tries > 0 {
                        if bytes[candidate + bestLength] == bytes[position + bestLength] {
                            var length = 0
                            while length < limit, bytes[candidate + length] == bytes[position + length] { length += 1 }
                            if length > bestLength {
                                bestLength = length
                                bestDistance = position - candidate
                                if length == limit { break }
                            }
                        }
                        candidate = previous[candidate & (windowSize - 1)]
                        tries -= 1
                    }
                    insert(position)
                }
                if bestLength >= minimumMatch {
                    writeLength(bestLength, to: &writer)
                    writeDistance(bestDistance, to: &writer)
                    for next in (position + 1)..<(position + bestLength) where next + minimumMatch <= count {
                        insert(next)
                    }
                    position += bestLength
                } else {
                    writeSymbol(Int(bytes[position]), to: &writer)
                    position += 1
                }
            }
        }
        writeSymbol(256, to: &writer)  // end of block
        return writer.finish()
    }

    /// A literal/length symbol in its fixed Huffman code (§3.2.6).
    private static func writeSymbol(_ symbol: Int, to writer: inout BitWriter) {
        switch symbol {
        case 0...143: writer.writeHuffman(0x30 + symbol, bitCount: 8)
        case 144...255: writer.writeHuffman(0x190 + symbol - 144, bitCount: 9)
        case 256...279: writer.writeHuffman(symbol - 256, bitCount: 7)
        default: writer.writeHuffman(0xC0 + symbol - 280, bitCount: 8)
        }
    }

    private static func writeLength(_ length: Int, to writer: inout BitWriter) {
        let code = lengthBase.lastIndex { $0 <= length }!
        writeSymbol(257 + code, to: &writer)
        writer.write(length - lengthBase[code], bitCount: lengthExtraBits[code])
    }

    private static func writeDistance(_ distance: Int, to writer: inout BitWriter) {
        let code = distanceBase.lastIndex { $0 <= distance }!
        writer.writeHuffman(code, bitCount: 5)
        writer.write(distance - distanceBase[code], bitCount: distanceExtraBits[code])
    }
}

/// DEFLATE's bit order (RFC 1951 §3.1.1): bits fill each byte from its least significant end; Huffman codes go in
/// most significant bit first, every other value least significant bit first.
private struct BitWriter {
    private var bytes: [UInt8] = []
    private var buffer: UInt64 = 0
    private var buffered = 0

    mutating func write(_ value: Int, bitCount: Int) {
        guard bitCount > 0 else { return }
        buffer |= UInt64(value) << UInt64(buffered)
        buffered += bitCount
        while buffered >= 8 {
            bytes.append(UInt8(truncatingIfNeeded: buffer))
            buffer >>= 8
            buffered -= 8
        }
    }

    mutating func writeHuffman(_ code: Int, bitCount: Int) {
        var reversed = 0
        for bit in 0..<bitCount where code & (1 << bit) != 0 { reversed |= 1 << (bitCount - 1 - bit) }
        write(reversed, bitCount: bitCount)
    }

    /// The bytes, the last one padded with zero bits.
    mutating func finish() -> [UInt8] {
        if buffered > 0 { bytes.append(UInt8(truncatingIfNeeded: buffer)) }
        buffer = 0
        buffered = 0
        return bytes
    }
}
