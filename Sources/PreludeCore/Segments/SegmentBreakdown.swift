/// An experiment's arms broken down by one device dimension (OS major version or locale; docs/results.md,
/// "Breakdowns"), each segment analysed with the same intervals and sequential test as the whole experiment.
///
/// Exploratory only: every segment is another comparison, so with many segments some will look significant by
/// chance (the multiple-comparison problem). A breakdown never carries a verdict; only the whole experiment's
/// analysis with its fixed settings decides.
public struct SegmentBreakdown: Sendable, Hashable {
    /// What the segments are values of.
    public enum Dimension: String, Sendable, Hashable, CaseIterable {
        /// The OS major version (`18`).
        case osMajor
        /// The locale, `language[-REGION]` (`fr-CA`).
        case locale
    }

    /// One value of the dimension and its arms.
    public struct Segment: Sendable, Hashable {
        /// The value (`18`, `fr-CA`), ``EventSegment/unknownValue`` for installs whose events carried none, or
        /// ``EventSegment/otherValue`` for the values beyond the ones shown.
        public var value: String
        /// The arms in the report's order, with their rates, intervals and comparisons; never a verdict.
        public var variants: [VariantResult]

        /// Installs exposed in the segment across every arm.
        public var exposed: Int { variants.reduce(0) { $0 + $1.funnel.exposed } }
    }

    /// The dimension.
    public var dimension: Dimension
    /// The segments: the most exposed values first, then `other`, then `unknown`.
    public var segments: [Segment]

    /// How many values are shown by name; the rest are added to ``EventSegment/otherValue``.
    public static let shownValues = 10

    /// The sentence that labels every breakdown.
    public static let exploratoryNote =
        "Exploratory: each segment is one more comparison, so some will look significant by chance. Segments never "
        + "yield a verdict; decide on the whole experiment."

    /// Analyses `rows` (one per segment value and arm) like
    /// ``ExperimentAnalysis/analyze(experimentKey:feature:variants:controlName:minimumEffect:settings:)`` analyses
    /// the whole experiment, segment by segment, and removes every verdict.
    ///
    /// - Parameters:
    ///   - rows: the arms' funnels per value; rows of arms not in `variants` are ignored.
    ///   - variants: the report's arms (name and configured weight), in its order.
    /// - Returns: the breakdown; a segment whose counts cannot be analysed (they never should be: each install
    ///   counts in one segment only) is left out.
    public static func analyze(
        dimension: Dimension, rows: [(value: String, variant: String, counts: FunnelCounts)],
        experimentKey: String, feature: String, variants: [(name: String, weight: Double)], controlName: String,
        minimumEffect: Double, settings: ExperimentAnalysis.Settings
    ) -> SegmentBreakdown {
        let arms = Set(variants.map(\.name))
        var byValue: [String: [String: FunnelCounts]] = [:]
        for row in rows where arms.contains(row.variant) {
            byValue[row.value, default: [:]][row.variant, default: FunnelCounts()] =
                (byValue[row.value]?[row.variant] ?? FunnelCounts()) + row.counts
        }
        func exposed(_ value: String) -> Int { byValue[value]?.values.reduce(0) { $0 + $1.exposed } ?? 0 }
        let special: Set<String> = [EventSegment.unknownValue, EventSegment.otherValue]
        let ranked = byValue.keys.filter { !special.contains($0) }.sorted {
            let (left, right) = (exposed($0), exposed($1))
            return left != right ? left > right : $0 < $1
        }
        // Values beyond the ones shown join `other`, so the segments still add up to the whole experiment.
        var other = byValue[EventSegment.otherValue] ?? [:]
        for value in ranked.dropFirst(shownValues) {
            for (variant, counts) in byValue[value]! { other[variant] = (other[variant] ?? FunnelCounts()) + counts }
        }
        var ordered = ranked.prefix(shownValues).map { ($0, byValue[$0]!) }
        if !other.isEmpty { ordered.append((EventSegment.otherValue, other)) }
        if let unknown = byValue[EventSegment.unknownValue] { ordered.append((EventSegment.unknownValue, unknown)) }

        let segments = ordered.compactMap { value, counts -> Segment? in
            guard
                var report = try? ExperimentAnalysis.analyze(
                    experimentKey: experimentKey, feature: feature,
                    variants: variants.map { ($0.name, $0.weight, counts[$0.name] ?? FunnelCounts()) },
                    controlName: controlName, minimumEffect: minimumEffect, settings: settings)
            else { return nil }
            for index in report.variants.indices {
                report.variants[index].verdict = nil
                report.variants[index].taskVerdict = nil
                report.variants[index].additionalInstallsPerArm = nil
            }
            return Segment(value: value, variants: report.variants)
        }
        return SegmentBreakdown(dimension: dimension, segments: segments)
    }

    /// The segments as a JSON array: `[{"value", "exposed", "variants": [...]}]`, each variant as in the report's
    /// `variants` (``ExperimentReport/encodeJSON()``), its verdicts null.
    public func encodeJSON() -> JSONValue {
        .array(
            segments.map { segment in
                .object(
                    JSONObject([
                        ("value", .string(segment.value)), ("exposed", .integer(segment.exposed)),
                        ("variants", .array(segment.variants.map(ExperimentReport.encode))),
                    ]))
            })
    }
}
