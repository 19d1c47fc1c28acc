import CLinuxSystem

#if canImport(Glibc)
    import Glibc
#endif

/// Thin helpers over the POSIX socket calls the engine needs.
package enum Socket {
    /// Creates a non-blocking listening TCP socket bound to `host:port`; returns it and the bound port.
    package static func listen(host: String, port: Int, backlog: Int) throws -> (fd: Int32, port: Int) {
        guard (0...65535).contains(port) else { throw SocketError("bind \(host):\(port)", code: EINVAL) }
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var result: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, String(port), &hints, &result)
        guard rc == 0, let first = result else {
            let reason = String(cString: gai_strerror(rc))
            throw SocketError("resolve \(host) (\(reason))", code: EINVAL)
        }
        defer { freeaddrinfo(result) }
        var lastError = SocketError("bind \(host):\(port)", code: EADDRNOTAVAIL)
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let ai = candidate {
            candidate = ai.pointee.ai_next
            let fd = socket(ai.pointee.ai_family, prelude_stream_socket_type, 0)
            if fd < 0 {
                lastError = SocketError("socket")
                continue
            }
            var one: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
            if bind(fd, ai.pointee.ai_addr, ai.pointee.ai_addrlen) != 0 {
                lastError = SocketError("bind \(host):\(port)")
                close(fd)
                continue
            }
            if Glibc.listen(fd, Int32(clamping: backlog)) != 0 {
                lastError = SocketError("listen \(host):\(port)")
                close(fd)
                continue
            }
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let bound = withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            }
            guard bound == 0 else {
                lastError = SocketError("getsockname")
                close(fd)
                continue
            }
            return (fd, describe(&storage).port)
        }
        throw lastError
    }

    /// Disables Nagle's algorithm: a response must not wait for the client's delayed ACK (about 40 ms).
    package static func setNoDelay(_ fd: Int32) {
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    /// The numeric address and port of a socket address.
    package static func describe(_ storage: inout sockaddr_storage) -> (address: String, port: Int) {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        switch Int32(storage.ss_family) {
        case AF_INET:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { sin in
                    var addr = sin.pointee.sin_addr
                    inet_ntop(AF_INET, &addr, &buffer, socklen_t(buffer.count))
                    return (
                        buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) },
                        Int(UInt16(bigEndian: sin.pointee.sin_port))
                    )
                }
            }
        case AF_INET6:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { sin in
                    var addr = sin.pointee.sin6_addr
                    inet_ntop(AF_INET6, &addr, &buffer, socklen_t(buffer.count))
                    return (
                        "[" + buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) } + "]",
                        Int(UInt16(bigEndian: sin.pointee.sin6_port))
                    )
                }
            }
        default:
            return ("unknown", 0)
        }
    }
}
