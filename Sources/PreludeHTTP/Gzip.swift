import CZlib

/// gzip (RFC 1952) through zlib, for bodies prepared once and served many times.
public enum Gzip {
    /// A zlib failure with its return code and message.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// zlib's return code (Z_DATA_ERROR, Z_MEM_ERROR, ...).
        public let code: Int32
        /// zlib's message, when it gave one.
        public let message: String
        /// Whether decompression stopped because the output passed its size limit (the input may be valid).
        public var exceededLimit = false
        public var description: String { "zlib error \(code): \(message)" }
    }

    /// Compresses `bytes` into a gzip member. `level` is zlib's 0–9 (default 9: bodies are compressed once per revision).
    public static func compress(_ bytes: [UInt8], level: Int32 = 9) -> [UInt8] {
        var stream = z_stream()
        // windowBits 15 + 16 asks zlib for a gzip header and trailer instead of a zlib wrapper.
        let rc = prelude_deflateInit2(&stream, level, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY)
        precondition(rc == Z_OK, "deflateInit2 failed: \(rc)")
        defer { deflateEnd(&stream) }
        let bound = Int(deflateBound(&stream, uLong(bytes.count)))
        var output = [UInt8](repeating: 0, count: bound)
        var input = bytes
        let produced = input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                stream.next_in = inBuffer.baseAddress
                stream.avail_in = uInt(inBuffer.count)
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = uInt(outBuffer.count)
                let result = deflate(&stream, Z_FINISH)
                // deflateBound guarantees room for a single Z_FINISH call.
                precondition(result == Z_STREAM_END, "deflate did not finish: \(result)")
                return outBuffer.count - Int(stream.avail_out)
            }
        }
        output.removeSubrange(produced...)
        return output
    }

    /// Decompresses exactly one gzip member (request bodies, tests). Refuses more than `maxSize` bytes of output
    /// (``Failure/exceededLimit``), so a small bomb cannot exhaust memory, and bytes after the member.
    public static func decompress(_ bytes: [UInt8], maxSize: Int = 64 << 20) throws -> [UInt8] {
        var stream = z_stream()
        let rc = prelude_inflateInit2(&stream, 15 + 16)
        guard rc == Z_OK else { throw Failure(code: rc, message: "inflateInit2 failed") }
        defer { inflateEnd(&stream) }
        var input = bytes
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        return try input.withUnsafeMutableBufferPointer { inBuffer in
            stream.next_in = inBuffer.baseAddress
            stream.avail_in = uInt(inBuffer.count)
            while true {
                let (result, produced) = chunk.withUnsafeMutableBufferPointer { outBuffer in
                    stream.next_out = outBuffer.baseAddress
                    stream.avail_out = uInt(outBuffer.count)
                    let r = inflate(&stream, Z_NO_FLUSH)
                    return (r, outBuffer.count - Int(stream.avail_out))
                }
                output.append(contentsOf: chunk[0..<produced])
                guard output.count <= maxSize else {
                    throw Failure(
                        code: Z_BUF_ERROR, message: "output larger than \(maxSize) bytes", exceededLimit: true)
                }
                if result == Z_STREAM_END {
                    guard stream.avail_in == 0 else {
                        throw Failure(code: Z_DATA_ERROR, message: "\(stream.avail_in) bytes after the gzip member")
                    }
                    return output
                }
                guard result == Z_OK else {
                    let message = stream.msg.map { String(cString: $0) } ?? "truncated or corrupt input"
                    throw Failure(code: result, message: message)
                }
                if stream.avail_in == 0 && produced == 0 {
                    throw Failure(code: Z_BUF_ERROR, message: "truncated input")
                }
            }
        }
    }
}
