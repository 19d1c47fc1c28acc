import Glibc

/// The service's wall clock: milliseconds since the Unix epoch, from `CLOCK_REALTIME` or injected by tests. It
/// stamps what is stored and shown (revision and audit times, `received_at`, token use), sets the event retention
/// cutoff and paces the admin failure limit.
///
/// It is not the HTTP engine's clock: `HTTPServerConfiguration`'s monotonic milliseconds measure timeouts, have no
/// epoch and never go backwards, while this one is calendar time and steps when the system time is set.
package struct ServiceClock: Sendable {
    private let read: @Sendable () -> Int64

    /// A clock reading `milliseconds` (since the Unix epoch) on every call.
    package init(milliseconds: @escaping @Sendable () -> Int64) {
        self.read = milliseconds
    }

    /// The system's real-time clock.
    package static let system = ServiceClock {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }

    /// A clock that always reads `milliseconds`.
    package static func fixed(_ milliseconds: Int64) -> ServiceClock {
        ServiceClock { milliseconds }
    }

    /// Now, in milliseconds since the Unix epoch.
    package var milliseconds: Int64 { read() }

    /// Now, in seconds since the Unix epoch.
    package var seconds: Double { Double(read()) / 1000 }
}
