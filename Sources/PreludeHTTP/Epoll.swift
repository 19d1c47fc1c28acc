import CLinuxSystem

#if canImport(Glibc)
    import Glibc
#endif

/// Linux epoll and eventfd through the `CLinuxSystem` shim, which includes the system headers (Swift's Glibc
/// module does not import `<sys/epoll.h>` or `<sys/eventfd.h>`). The shim owns the `epoll_event` layout
/// (packed on x86_64): Swift only holds an opaque buffer and reads flags and descriptors through it.
/// Failures throw ``SocketError`` with the errno read right after the call.
package enum Epoll {
    package static let readable = prelude_epoll_readable
    package static let writable = prelude_epoll_writable
    package static let error = prelude_epoll_error
    package static let hangup = prelude_epoll_hangup

    /// An `epoll_ctl` operation.
    package enum Operation {
        case add, modify, delete

        var code: Int32 {
            switch self {
            case .add: prelude_epoll_ctl_add
            case .modify: prelude_epoll_ctl_mod
            case .delete: prelude_epoll_ctl_del
            }
        }

        var name: String {
            switch self {
            case .add: "epoll_ctl(ADD)"
            case .modify: "epoll_ctl(MOD)"
            case .delete: "epoll_ctl(DEL)"
            }
        }
    }

    /// A buffer `epoll_wait` fills, laid out by the C side.
    package struct Events {
        let pointer: UnsafeMutablePointer<epoll_event>
        /// How many events it holds.
        package let capacity: Int32

        /// Allocates room for `capacity` events; release with ``deallocate()``.
        package init(capacity: Int32) {
            guard let pointer = prelude_epoll_events_allocate(capacity) else {
                preconditionFailure("out of memory for \(capacity) epoll events")
            }
            self.pointer = pointer
            self.capacity = capacity
        }

        /// Frees the buffer.
        package func deallocate() { prelude_epoll_events_free(pointer) }

        /// The flags and descriptor of event `index`.
        package subscript(index: Int32) -> (flags: UInt32, fd: Int32) {
            (prelude_epoll_event_flags(pointer, index), prelude_epoll_event_fd(pointer, index))
        }
    }

    /// `epoll_create1(EPOLL_CLOEXEC)`.
    package static func create() throws(SocketError) -> Int32 {
        let fd = prelude_epoll_create()
        guard fd >= 0 else { throw SocketError("epoll_create1", code: errno) }
        return fd
    }

    /// `eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)`.
    package static func makeEventFD() throws(SocketError) -> Int32 {
        let fd = prelude_eventfd()
        guard fd >= 0 else { throw SocketError("eventfd", code: errno) }
        return fd
    }

    /// `epoll_ctl` with the descriptor itself as the event's data.
    package static func control(_ epollFD: Int32, _ operation: Operation, _ fd: Int32, events: UInt32)
        throws(SocketError)
    {
        guard prelude_epoll_ctl(epollFD, operation.code, fd, events) == 0 else {
            throw SocketError("\(operation.name) fd \(fd)", code: errno)
        }
    }

    /// `epoll_wait` into `events`; the number of events, 0 on timeout, -1 when interrupted (EINTR).
    package static func wait(_ epollFD: Int32, _ events: Events, timeout: Int32) -> Int32 {
        prelude_epoll_wait(epollFD, events.pointer, events.capacity, timeout)
    }
}
