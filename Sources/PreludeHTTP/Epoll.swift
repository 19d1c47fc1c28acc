#if canImport(Glibc)
    import Glibc
#endif

/// Linux epoll and eventfd, reached through `dlsym` because Swift's Glibc module does not import
/// `<sys/epoll.h>` or `<sys/eventfd.h>` (and the package gives this module no C target of its own).
/// The constants are the Linux ABI values; `epoll_event` is packed on x86_64 (12 bytes) and naturally
/// aligned elsewhere (16 bytes), so events are read and written at explicit byte offsets.
package enum Epoll {
    package static let readable: UInt32 = 0x001
    package static let writable: UInt32 = 0x004
    package static let error: UInt32 = 0x008
    package static let hangup: UInt32 = 0x010

    static let controlAdd: Int32 = 1
    static let controlDelete: Int32 = 2
    static let controlModify: Int32 = 3
    private static let closeOnExec: Int32 = 0x80000  // EPOLL_CLOEXEC = EFD_CLOEXEC = O_CLOEXEC
    private static let nonBlocking: Int32 = 0x800  // EFD_NONBLOCK = O_NONBLOCK

    #if arch(x86_64)
        /// sizeof(struct epoll_event).
        package static let eventSize = 12
        static let dataOffset = 4
    #else
        package static let eventSize = 16
        static let dataOffset = 8
    #endif

    private typealias CreateFunction = @convention(c) (Int32) -> Int32
    private typealias ControlFunction = @convention(c) (Int32, Int32, Int32, UnsafeMutableRawPointer?) -> Int32
    private typealias WaitFunction = @convention(c) (Int32, UnsafeMutableRawPointer?, Int32, Int32) -> Int32
    private typealias EventFDFunction = @convention(c) (UInt32, Int32) -> Int32

    private static func symbol<T>(_ name: String, as: T.Type) -> T {
        guard let pointer = dlsym(nil, name) else { preconditionFailure("libc has no \(name)") }
        return unsafeBitCast(pointer, to: T.self)
    }

    nonisolated(unsafe) private static let createFunction = symbol("epoll_create1", as: CreateFunction.self)
    nonisolated(unsafe) private static let controlFunction = symbol("epoll_ctl", as: ControlFunction.self)
    nonisolated(unsafe) private static let waitFunction = symbol("epoll_wait", as: WaitFunction.self)
    nonisolated(unsafe) private static let eventFDFunction = symbol("eventfd", as: EventFDFunction.self)

    /// `epoll_create1(EPOLL_CLOEXEC)`.
    package static func create() -> Int32 { createFunction(closeOnExec) }

    /// `eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)`.
    package static func makeEventFD() -> Int32 { eventFDFunction(0, nonBlocking | closeOnExec) }

    /// `epoll_ctl` with the descriptor itself as the event's data.
    @discardableResult
    package static func control(_ epollFD: Int32, _ operation: Int32, _ fd: Int32, events: UInt32) -> Int32 {
        withUnsafeTemporaryAllocation(byteCount: 16, alignment: 8) { buffer in
            buffer.storeBytes(of: events, toByteOffset: 0, as: UInt32.self)
            buffer.storeBytes(of: UInt64(UInt32(bitPattern: fd)), toByteOffset: dataOffset, as: UInt64.self)
            return controlFunction(epollFD, operation, fd, buffer.baseAddress)
        }
    }

    /// `epoll_wait` into a buffer of `capacity` events.
    package static func wait(_ epollFD: Int32, _ events: UnsafeMutableRawPointer, capacity: Int, timeout: Int32)
        -> Int32
    {
        waitFunction(epollFD, events, Int32(capacity), timeout)
    }

    /// The flags and descriptor of event `index` in a buffer filled by `wait`.
    package static func event(_ events: UnsafeMutableRawPointer, _ index: Int) -> (flags: UInt32, fd: Int32) {
        let base = index * eventSize
        let flags = events.loadUnaligned(fromByteOffset: base, as: UInt32.self)
        let data = events.loadUnaligned(fromByteOffset: base + dataOffset, as: UInt64.self)
        return (flags, Int32(bitPattern: UInt32(truncatingIfNeeded: data)))
    }
}
