import CLinuxSystem
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The accept thread: takes connections off the listening socket and deals them round-robin to the loops.
///
/// At `maxConnections` it stops polling the listening socket, so new clients wait in the kernel's backlog;
/// on EMFILE/ENFILE it pauses for `acceptBackoff` instead of spinning on a socket that stays readable.
final class Acceptor: Sendable {
    let core: ServerCore
    let listenFD: Int32
    let loops: [EventLoop]
    private let stopRequested = Atomic<Bool>(false)
    private let graceMilliseconds = Atomic<Int64>(0)

    init(core: ServerCore, listenFD: Int32, loops: [EventLoop]) {
        self.core = core
        self.listenFD = listenFD
        self.loops = loops
    }

    /// Asks the acceptor to close the listening socket and start the loops' graceful stop.
    func stop(graceMilliseconds grace: Int64) {
        graceMilliseconds.store(grace, ordering: .relaxed)
        stopRequested.store(true, ordering: .releasing)
        core.wakeAcceptor()
    }

    func run() {
        var next = 0
        var pausedUntil: Int64 = 0
        let maxConnections = core.configuration.maxConnections
        let backoff = Int64((core.configuration.acceptBackoff * 1000).rounded())
        var fds = [
            pollfd(fd: core.acceptorWakeFD, events: Int16(POLLIN), revents: 0),
            pollfd(fd: listenFD, events: Int16(POLLIN), revents: 0),
        ]
        while !stopRequested.load(ordering: .acquiring) {
            let now = SystemInfo.monotonicMilliseconds()
            let saturated = core.openConnections.load(ordering: .acquiring) >= maxConnections
            let backingOff = now < pausedUntil
            let count = saturated || backingOff ? 1 : 2
            let timeout: Int32 = backingOff ? Int32(clamping: pausedUntil - now) : -1
            fds[0].revents = 0
            fds[1].revents = 0
            let ready = poll(&fds, nfds_t(count), timeout)
            if ready < 0 { continue }
            if fds[0].revents != 0 {
                var value: UInt64 = 0
                _ = read(core.acceptorWakeFD, &value, 8)
            }
            if stopRequested.load(ordering: .acquiring) { break }
            guard count == 2, fds[1].revents != 0 else { continue }
            while core.openConnections.load(ordering: .acquiring) < maxConnections {
                var storage = sockaddr_storage()
                var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
                let fd = withUnsafeMutablePointer(to: &storage) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        prelude_accept_nonblocking(listenFD, $0, &length)
                    }
                }
                if fd < 0 {
                    let error = errno
                    if error == EINTR || error == ECONNABORTED { continue }
                    if error == EAGAIN || error == EWOULDBLOCK { break }
                    core.configuration.eventHandler?(.acceptFailed(SocketError("accept", code: error)))
                    if error == EMFILE || error == ENFILE || error == ENOBUFS || error == ENOMEM {
                        // Out of descriptors: the socket stays readable, so polling it again would spin.
                        pausedUntil = SystemInfo.monotonicMilliseconds() + backoff
                    }
                    break
                }
                Socket.setNoDelay(fd)
                let remote = Socket.describe(&storage)
                core.openConnections.wrappingAdd(1, ordering: .acquiringAndReleasing)
                loops[next].post(.adopt(fd: fd, remoteAddress: "\(remote.address):\(remote.port)"))
                next = (next + 1) % loops.count
            }
        }
        close(listenFD)
        let grace = graceMilliseconds.load(ordering: .relaxed)
        for loop in loops { loop.post(.shutdown(graceMilliseconds: grace)) }
        core.running.leave()
    }
}
