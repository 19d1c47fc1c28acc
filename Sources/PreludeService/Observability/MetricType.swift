/// The `# TYPE` of a metric family.
package enum MetricType: String, Sendable {
    case counter
    case gauge
    case histogram
}
