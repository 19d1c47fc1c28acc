/// Something that writes one or more metric families when `/metrics` is scraped.
package protocol MetricsCollector: Sendable {
    /// Writes this collector's families (HELP, TYPE and samples) into `writer`.
    func collect(into writer: inout MetricsTextWriter)
}
