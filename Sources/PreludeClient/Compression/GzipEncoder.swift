/// One gzip member (RFC 1952) around a ``Deflater`` stream: what the client sends as `Content-Encoding: gzip`.
enum GzipEncoder {
    /// `bytes` as a gzip member: a 10-byte header (no name, no time, OS unknown), the DEFLATE data, then the CRC-32
    /// and the input size modulo 2³², both little-endian.
    static func encode(_ bytes: [UInt8]) -> [UInt8] {
        var member: [UInt8] = [0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xFF]
        member += Deflater.compress(bytes)
        let crc = CRC32.checksum(bytes)
        let size = UInt32(truncatingIfNeeded: bytes.count)
        for shift in stride(from: 0, to: 32, by: 8) { member.append(UInt8(truncatingIfNeeded: crc >> UInt32(shift))) }
        for shift in stride(from: 0, to: 32, by: 8) { member.append(UInt8(truncatingIfNeeded: size >> UInt32(shift))) }
        return member
    }
}
