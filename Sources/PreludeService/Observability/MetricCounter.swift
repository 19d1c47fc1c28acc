import Synchronization

/// A monotonically increasing counter without labels; `add` is one relaxed atomic add.
package final class MetricCounter: MetricsCollector {
    /// The family name, e.g. `prelude_events_ingested_total`.
    package let name: String
    /// The HELP text.
    package let help: String
    private let count = Atomic<UInt64>(0)

    /// A counter at zero.
    package init(name: String, help: String) {
        self.name = name
        self.help = help
    }

    /// Adds `amount` (default 1).
    package func add(_ amount: UInt64 = 1) { count.wrappingAdd(amount, ordering: .relaxed) }

    /// The current count.
    package var value: UInt64 { count.load(ordering: .relaxed) }

    package func collect(into writer: inout MetricsTextWriter) {
        writer.family(name, type: .counter, help: help)
        writer.sample(name, value: value)
    }
}
