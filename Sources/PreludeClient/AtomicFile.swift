import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Durable file operations on POSIX: whole-file replacement by write-temp-fsync-rename, and appends with fsync.
enum AtomicFile {
    /// A failed system call, with errno.
    struct Failure: Error, Sendable, CustomStringConvertible {
        /// What was being done, and on which path.
        let operation: String
        /// errno at the failure.
        let code: Int32
        var description: String { "\(operation): \(String(cString: strerror(code))) (errno \(code))" }
    }

    /// Replaces `path` with `bytes` atomically: a reader (or a process restarted after a crash) sees the old
    /// file or the new one, never a mix. The data and the rename are fsynced before returning.
    static func write(_ bytes: some Collection<UInt8>, to path: String) throws(Failure) {
        let temporary = path + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Failure(operation: "open \(temporary)", code: errno) }
        do throws(Failure) {
            try writeAll(fd, Array(bytes), path: temporary)
            guard fsync(fd) == 0 else { throw Failure(operation: "fsync \(temporary)", code: errno) }
        } catch {
            close(fd)
            unlink(temporary)
            throw error
        }
        close(fd)
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw Failure(operation: "rename \(temporary)", code: code)
        }
        syncDirectory(of: path)
    }

    /// Appends `bytes` to `path` (created when missing) and fsyncs before returning.
    static func append(_ bytes: [UInt8], to path: String) throws(Failure) {
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Failure(operation: "open \(path)", code: errno) }
        defer { close(fd) }
        try writeAll(fd, bytes, path: path)
        guard fsync(fd) == 0 else { throw Failure(operation: "fsync \(path)", code: errno) }
    }

    /// The whole file, or nil when it does not exist.
    static func read(_ path: String) -> [UInt8]? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return [UInt8](data)
    }

    /// Removes `path` if present.
    static func remove(_ path: String) {
        unlink(path)
        syncDirectory(of: path)
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws(Failure) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                systemWrite(fd, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw Failure(operation: "write \(path)", code: errno)
            }
            offset += written
        }
    }

    // The rename and a new file's name live in the directory: fsync it so they survive a power cut too.
    private static func syncDirectory(of path: String) {
        let directory = (path as NSString).deletingLastPathComponent
        let fd = open(directory.isEmpty ? "." : directory, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }
}

// `write` inside `AtomicFile` would name the static method; this names the system call.
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, buffer, count)
}
