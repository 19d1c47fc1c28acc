#if canImport(Glibc)
    import Glibc
#endif

/// A failed socket call, with the errno kept at the throw site.
public struct SocketError: Error, Sendable, CustomStringConvertible {
    /// The operation that failed, e.g. `bind 127.0.0.1:8080`.
    public let operation: String
    /// The errno value.
    public let code: Int32

    /// Creates an error for `operation` with the current errno (or the given one).
    package init(_ operation: String, code: Int32 = errno) {
        self.operation = operation
        self.code = code
    }

    /// The C library's message for the errno.
    public var message: String { String(cString: strerror(code)) }

    public var description: String { "\(operation) failed: \(message) (errno \(code))" }
}
