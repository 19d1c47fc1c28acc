import Synchronization

/// The metric families `/metrics` exposes, in registration order.
///
/// Registering takes a lock; recording never touches the registry (collectors own their atomic cells), and a
/// scrape holds the lock only to copy the collector list.
package final class MetricsRegistry: Sendable {
    private let collectors = Mutex<[any MetricsCollector]>([])

    /// An empty registry.
    package init() {}

    /// Adds a collector; its families follow those already registered.
    package func register(_ collector: any MetricsCollector) {
        collectors.withLock { $0.append(collector) }
    }

    /// Registers and returns a new counter.
    @discardableResult
    package func counter(_ name: String, help: String) -> MetricCounter {
        let counter = MetricCounter(name: name, help: help)
        register(counter)
        return counter
    }

    /// Registers and returns a new latency histogram.
    @discardableResult
    package func histogram(_ name: String, help: String) -> MetricHistogram {
        let histogram = MetricHistogram(name: name, help: help)
        register(histogram)
        return histogram
    }

    /// Registers a counter read at scrape time (the count is kept elsewhere, e.g. by the event ingestor).
    package func counter(_ name: String, help: String, value: @escaping @Sendable () -> Double) {
        register(ObservedMetric(name: name, help: help, type: .counter, value: value))
    }

    /// Registers a gauge read at scrape time.
    package func gauge(_ name: String, help: String, value: @escaping @Sendable () -> Double) {
        register(ObservedMetric(name: name, help: help, value: value))
    }

    /// Registers a labelled gauge read at scrape time.
    package func gauge(
        _ name: String, help: String, labelNames: [String], samples: @escaping @Sendable () -> [ObservedMetric.Sample]
    ) {
        register(ObservedMetric(name: name, help: help, labelNames: labelNames, read: samples))
    }

    /// The exposition in Prometheus text format 0.0.4.
    package func render() -> String {
        let current = collectors.withLock { $0 }
        var writer = MetricsTextWriter()
        for collector in current { collector.collect(into: &writer) }
        return writer.text
    }
}
