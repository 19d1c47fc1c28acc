/// A gauge or counter whose samples are read by a closure at scrape time (open connections, live revisions,
/// events stored): the value lives where it is maintained, and the registry never holds a copy that could drift.
package struct ObservedMetric: MetricsCollector {
    /// One labelled sample.
    package struct Sample: Sendable {
        /// Label values, in the order of the gauge's `labelNames`.
        package var labelValues: [String]
        /// The value.
        package var value: Double

        /// Creates a sample.
        package init(_ labelValues: [String], _ value: Double) {
            self.labelValues = labelValues
            self.value = value
        }
    }

    /// The family name.
    package let name: String
    /// The HELP text.
    package let help: String
    /// `gauge`, or `counter` for a value that only grows.
    package let type: MetricType
    /// Label names of every sample.
    package let labelNames: [String]
    private let read: @Sendable () -> [Sample]

    /// A labelled metric; `read` returns every sample (label values in `labelNames` order).
    package init(
        name: String, help: String, type: MetricType = .gauge, labelNames: [String],
        read: @escaping @Sendable () -> [Sample]
    ) {
        precondition(type != .histogram, "histograms are LatencyHistogram's")
        precondition(labelNames.allSatisfy(MetricsTextWriter.isValidName), "invalid label name in \(labelNames)")
        self.name = name
        self.type = type
        self.help = help
        self.labelNames = labelNames
        self.read = read
    }

    /// A metric with one unlabelled sample.
    package init(name: String, help: String, type: MetricType = .gauge, value: @escaping @Sendable () -> Double) {
        self.init(name: name, help: help, type: type, labelNames: []) { [Sample([], value())] }
    }

    package func collect(into writer: inout MetricsTextWriter) {
        writer.family(name, type: type, help: help)
        for sample in read() {
            precondition(sample.labelValues.count == labelNames.count, "\(name): label count mismatch")
            writer.sample(name, labels: Array(zip(labelNames, sample.labelValues)), value: sample.value)
        }
    }
}
