import PreludeHTTP
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The Linux calls reached through the `CLinuxSystem` shim: event layout, errno on failure, accept4 flags.
@Suite struct LinuxSystemTests {
    @Test func epollReportsTheDescriptorAndFlagsItWasGiven() throws {
        let epollFD = try Epoll.create()
        defer { close(epollFD) }
        let eventFD = try Epoll.makeEventFD()
        defer { close(eventFD) }
        try Epoll.control(epollFD, .add, eventFD, events: Epoll.readable)
        var one: UInt64 = 1
        #expect(write(eventFD, &one, 8) == 8)
        let events = Epoll.Events(capacity: 4)
        defer { events.deallocate() }
        #expect(Epoll.wait(epollFD, events, timeout: 1000) == 1)
        #expect(events[0].fd == eventFD)
        #expect(events[0].flags & Epoll.readable != 0)
        #expect(events[0].flags & Epoll.writable == 0)
    }

    @Test func epollControlFailuresCarryErrno() throws {
        let epollFD = try Epoll.create()
        defer { close(epollFD) }
        let error = #expect(throws: SocketError.self) {
            try Epoll.control(epollFD, .modify, 987_654, events: Epoll.readable)
        }
        #expect(error?.code == EBADF)
        #expect(error?.operation.hasPrefix("epoll_ctl(MOD)") == true)
    }

    @Test func acceptedSocketsAreNonBlockingAndCloseOnExec() throws {
        let t = try TestServer.make()
        defer { t.stop() }
        let c = try t.client()
        try c.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try c.readResponse().status == 200)
        // The server runs in this process: find its end of the connection by the client's port.
        let clientPort = Self.port(c.fd, peer: false)
        var found: Int32?
        for fd in Int32(3)..<4096 where fd != c.fd && Self.port(fd, peer: true) == clientPort {
            found = fd
        }
        let serverFD = try #require(found)
        #expect(fcntl(serverFD, F_GETFL) & O_NONBLOCK != 0)
        #expect(fcntl(serverFD, F_GETFD) & FD_CLOEXEC != 0)
    }

    /// The local or peer port of `fd`, or nil when it is not a connected IPv4 socket.
    static func port(_ fd: Int32, peer: Bool) -> Int? {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let result = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                peer ? getpeername(fd, $0, &length) : getsockname(fd, $0, &length)
            }
        }
        guard result == 0, address.sin_family == sa_family_t(AF_INET) else { return nil }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
