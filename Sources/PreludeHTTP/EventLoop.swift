import PreludeLocking

#if canImport(Glibc)
    import Glibc
#endif

/// One epoll event-loop thread owning a set of connections.
///
/// `@unchecked Sendable` invariant: every stored `var` is touched only on the loop's own thread, except
/// `inbox`, which is behind a lock, and the descriptors, which are immutable after `init`. Other threads
/// talk to the loop only through `post(_:)`.
final class EventLoop: @unchecked Sendable {
    /// Work handed to the loop from other threads.
    enum Message: Sendable {
        /// Adopt an accepted socket.
        case adopt(fd: Int32, remoteAddress: String)
        /// A handler finished on the worker pool.
        case completed(HTTPConnection, HTTPResponse)
        /// Begin a graceful stop with this grace period in milliseconds.
        case shutdown(graceMilliseconds: Int64)
    }

    let core: ServerCore
    let epollFD: Int32
    let wakeFD: Int32
    private let inbox = PosixLock<[Message]>([])

    // Loop-thread state. `@exclusivity(unchecked)`: read and written only on the loop's thread, never by two
    // overlapping accesses (the connection table is looked up, then the connection runs), so the runtime's
    // per-access bookkeeping is skipped on the request path.
    /// The open connections by descriptor. Descriptors are small integers the kernel reuses from the lowest free
    /// one, so an array indexed by them is a direct lookup per event (no hashing) and stays as long as the largest
    /// descriptor this loop has served.
    @exclusivity(unchecked) private var slots: [HTTPConnection?] = []
    /// How many entries of `slots` hold a connection.
    @exclusivity(unchecked) private var connectionCount = 0
    @exclusivity(unchecked) var date = HTTPDate()
    @exclusivity(unchecked) var now: Int64
    var stopping = false
    /// Generates the request ids of this loop's connections.
    @exclusivity(unchecked) var requestIDs = RequestIDGenerator()
    private var hardDeadline: Int64 = .max
    private var nextSweep: Int64 = 0
    private let tickMilliseconds: Int32
    /// Scratch space every read on this loop goes through before being appended to a connection's buffer.
    let scratch: UnsafeMutableBufferPointer<UInt8>

    init(core: ServerCore) throws {
        self.core = core
        now = core.configuration.monotonicClock()
        let epollFD = try Epoll.create()
        let wakeFD: Int32
        do {
            wakeFD = try Epoll.makeEventFD()
            try Epoll.control(epollFD, .add, wakeFD, events: Epoll.readable)
        } catch {
            close(epollFD)
            throw error
        }
        self.epollFD = epollFD
        self.wakeFD = wakeFD
        let c = core.configuration
        let shortest =
            [c.headerTimeout, c.bodyIdleTimeout, c.bodyTimeout, c.writeTimeout, c.keepAliveTimeout, c.lingerTimeout]
            .min() ?? 1
        // Deadlines are checked by a sweep; a quarter of the shortest timeout keeps them accurate enough.
        tickMilliseconds = Int32(max(5, min(250, shortest * 1000 / 4)))
        scratch = .allocate(capacity: 64 * 1024)
    }

    deinit {
        scratch.deallocate()
        close(epollFD)
        close(wakeFD)
    }

    /// Hands a message to the loop from any thread.
    func post(_ message: Message) {
        let wasEmpty = inbox.withLock { queue in
            let empty = queue.isEmpty
            queue.append(message)
            return empty
        }
        if wasEmpty {
            var one: UInt64 = 1
            _ = write(wakeFD, &one, 8)
        }
    }

    /// Runs until stopped and every connection is closed.
    func run() {
        let events = Epoll.Events(capacity: 256)
        defer { events.deallocate() }
        while true {
            let n = Epoll.wait(epollFD, events, timeout: tickMilliseconds)
            now = core.configuration.monotonicClock()
            date.refresh()
            if n > 0 {
                for i in 0..<n {
                    let (flags, fd) = events[i]
                    if fd == wakeFD {
                        drainInbox()
                    } else if let connection = connection(fd) {
                        connection.handle(events: flags)
                    }
                }
            }
            if now >= nextSweep {
                nextSweep = now + Int64(tickMilliseconds)
                sweep()
            }
            if stopping && connectionCount == 0 { break }
        }
        core.loopStopped()
    }

    private func drainInbox() {
        var value: UInt64 = 0
        _ = read(wakeFD, &value, 8)
        let messages = inbox.withLock { queue in
            let taken = queue
            queue.removeAll(keepingCapacity: true)
            return taken
        }
        for message in messages {
            switch message {
            case .adopt(let fd, let remoteAddress):
                if stopping {
                    close(fd)
                    core.connectionClosed()
                    continue
                }
                do {
                    try Epoll.control(epollFD, .add, fd, events: Epoll.readable)
                } catch {
                    // Not watched, so never served: refuse it (closing sends the client a FIN or RST).
                    core.configuration.eventHandler?(.pollFailed(error))
                    close(fd)
                    core.connectionClosed()
                    continue
                }
                let index = Int(fd)
                if index >= slots.count { slots.append(contentsOf: repeatElement(nil, count: index + 1 - slots.count)) }
                slots[index] = HTTPConnection(fd: fd, remoteAddress: remoteAddress, loop: self)
                connectionCount += 1
            case .completed(let connection, let response):
                connection.handlerFinished(response)
            case .shutdown(let grace):
                stopping = true
                hardDeadline = now + grace
                for connection in openConnections() { connection.beginShutdown() }
            }
        }
    }

    private func sweep() {
        if stopping && now >= hardDeadline {
            for connection in openConnections() { connection.close() }
            return
        }
        for connection in openConnections() where connection.deadline <= now {
            connection.tick(now: now)
        }
    }

    /// Changes the epoll interest of a connection's socket; false (reported) when the kernel refused, and the
    /// connection must close, since it would no longer be woken.
    func setInterest(_ fd: Int32, _ events: UInt32) -> Bool {
        do {
            try Epoll.control(epollFD, .modify, fd, events: events)
            return true
        } catch {
            core.configuration.eventHandler?(.pollFailed(error))
            return false
        }
    }

    /// Forgets a connection whose socket is being closed.
    func remove(_ fd: Int32) {
        do {
            try Epoll.control(epollFD, .delete, fd, events: 0)
        } catch {
            // The descriptor is closed right after, which removes it from the interest list anyway.
            core.configuration.eventHandler?(.pollFailed(error))
        }
        let index = Int(fd)
        if index < slots.count, slots[index] != nil {
            slots[index] = nil
            connectionCount -= 1
        }
        core.connectionClosed()
    }

    /// The connection on `fd`, if this loop serves one.
    private func connection(_ fd: Int32) -> HTTPConnection? {
        let index = Int(fd)
        return index >= 0 && index < slots.count ? slots[index] : nil
    }

    /// A snapshot of the open connections (closing one while iterating changes the table, not the snapshot).
    private func openConnections() -> [HTTPConnection] { slots.compactMap { $0 } }
}
