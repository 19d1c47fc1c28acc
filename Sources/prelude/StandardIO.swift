#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

/// Standard streams and whole-file reads and writes for the commands, on the C library: the binary links
/// FoundationEssentials only (no `FileHandle`), which keeps the full Foundation and ICU out of `prelude serve`.
enum StandardIO {
    /// Why a file could not be read or written: the path and the system's reason (`strerror`).
    struct FileError: Error, CustomStringConvertible {
        let path: String
        let reason: String
        var description: String { "cannot access \(path): \(reason)" }
    }

    /// Writes `text` to standard error as is (unbuffered).
    static func error(_ text: String) {
        writeAll(descriptor: 2, Array(text.utf8))
    }

    /// Writes `bytes` to standard output, after whatever `print` buffered.
    static func output(_ bytes: [UInt8]) {
        fflush(nil)  // what `print` buffered goes first
        writeAll(descriptor: 1, bytes)
    }

    /// Ends the process with `code` (the C library's `exit`: buffered output is flushed).
    static func exit(_ code: Int32) -> Never {
        #if canImport(Glibc)
            Glibc.exit(code)
        #else
            Darwin.exit(code)
        #endif
    }

    private static func writeAll(descriptor: Int32, _ bytes: [UInt8]) {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBufferPointer {
                write(descriptor, $0.baseAddress! + written, $0.count - written)
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            written += count
        }
    }

    /// Everything on standard input until end of file.
    static func readInput() throws -> [UInt8] {
        try readAll(descriptor: 0, path: "standard input")
    }

    /// The bytes of the file at `path`.
    static func readFile(_ path: String) throws -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileError(path: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        return try readAll(descriptor: descriptor, path: path)
    }

    /// Replaces the file at `path` with `bytes`, atomically (a temporary file beside it, renamed over it).
    static func writeFile(_ path: String, _ bytes: [UInt8]) throws {
        let temporary = path + ".tmp-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw FileError(path: path, reason: String(cString: strerror(errno))) }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBufferPointer {
                write(descriptor, $0.baseAddress! + written, $0.count - written)
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                let reason = String(cString: strerror(errno))
                close(descriptor)
                unlink(temporary)
                throw FileError(path: path, reason: reason)
            }
            written += count
        }
        close(descriptor)
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw FileError(path: path, reason: reason)
        }
    }

    private static func readAll(descriptor: Int32, path: String) throws -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBufferPointer { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw FileError(path: path, reason: String(cString: strerror(errno))) }
            if count == 0 { return bytes }
            bytes += chunk[0..<count]
        }
    }
}
