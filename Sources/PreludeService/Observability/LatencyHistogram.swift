import Synchronization

/// The cells of one latency histogram series: a count per bucket (not cumulative; the writer sums them) and
/// the sum of observations in nanoseconds. An observation is two relaxed atomic adds and no allocation.
///
/// Buckets are fixed for every latency histogram of the service, 0.5 ms to 5 s (`upperBounds`), so series of
/// different families can be compared and aggregated.
package final class LatencyHistogram: Sendable {
    /// Upper bounds (`le`) in seconds, ascending; `+Inf` follows implicitly.
    package static let upperBounds: [Double] = [
        0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5,
    ]
    /// The same bounds in nanoseconds.
    private static let upperBoundsNanoseconds: [UInt64] = upperBounds.map { UInt64(($0 * 1e9).rounded()) }

    // 13 finite buckets + `+Inf`.
    private let buckets: InlineArray<14, Atomic<UInt64>>
    private let sumNanoseconds = Atomic<UInt64>(0)

    /// An empty series.
    package init() {
        precondition(Self.upperBounds.count == 13, "InlineArray size follows upperBounds")
        buckets = InlineArray { _ in Atomic<UInt64>(0) }
    }

    /// Records one observation.
    package func observe(nanoseconds: UInt64) {
        var index = 0
        // le semantics: an observation equal to a bound belongs to that bucket.
        while index < 13 && nanoseconds > Self.upperBoundsNanoseconds[index] { index += 1 }
        buckets[index].wrappingAdd(1, ordering: .relaxed)
        sumNanoseconds.wrappingAdd(nanoseconds, ordering: .relaxed)
    }

    /// The number of observations.
    package var count: UInt64 {
        var total: UInt64 = 0
        for index in 0..<14 { total &+= buckets[index].load(ordering: .relaxed) }
        return total
    }

    /// Writes `name_bucket` (cumulative, ending with `+Inf`), `name_sum` (seconds) and `name_count` samples.
    /// `_count` is the `+Inf` bucket, so the two always agree even while observations race the scrape.
    package func write(_ name: String, labels: [(String, String)], into writer: inout MetricsTextWriter) {
        var cumulative: UInt64 = 0
        for index in 0..<14 {
            cumulative &+= buckets[index].load(ordering: .relaxed)
            let bound = index < 13 ? MetricsTextWriter.format(Self.upperBounds[index]) : "+Inf"
            writer.sample(name + "_bucket", labels: labels + [("le", bound)], value: cumulative)
        }
        writer.sample(
            name + "_sum", labels: labels, value: Double(sumNanoseconds.load(ordering: .relaxed)) / 1_000_000_000)
        writer.sample(name + "_count", labels: labels, value: cumulative)
    }
}
