/// A latency histogram family without labels (e.g. `prelude_db_write_duration_seconds`).
package final class MetricHistogram: MetricsCollector {
    /// The family name.
    package let name: String
    /// The HELP text.
    package let help: String
    /// The one series.
    package let series = LatencyHistogram()

    /// An empty histogram.
    package init(name: String, help: String) {
        self.name = name
        self.help = help
    }

    /// Records one observation.
    package func observe(nanoseconds: UInt64) { series.observe(nanoseconds: nanoseconds) }

    package func collect(into writer: inout MetricsTextWriter) {
        writer.family(name, type: .histogram, help: help)
        series.write(name, labels: [], into: &writer)
    }
}
