import PreludeCore
import Testing

/// Breakdowns per segment: each segment analysed exactly like a whole experiment with its own counts, never a
/// verdict, at most `shownValues` values by name, and segments that add up to the whole.
@Suite struct SegmentBreakdownTests {
    static let variants: [(name: String, weight: Double)] = [("control", 1), ("short-copy", 1)]

    static func counts(_ exposed: Int, _ granted: Int) -> FunnelCounts {
        FunnelCounts(exposed: exposed, systemGranted: granted, granted: granted)
    }

    static func breakdown(
        _ rows: [(value: String, variant: String, counts: FunnelCounts)],
        variants: [(name: String, weight: Double)] = variants
    ) -> SegmentBreakdown {
        SegmentBreakdown.analyze(
            dimension: .locale, rows: rows, experimentKey: "camera-prime-copy", feature: "camera", variants: variants,
            controlName: "control", minimumEffect: 0.02, settings: .standard)
    }

    @Test func eachSegmentHasTheIntervalsOfTheSameAnalysisOnItsOwnCounts() throws {
        let rows: [(value: String, variant: String, counts: FunnelCounts)] = [
            ("fr-CA", "control", Self.counts(400, 160)), ("fr-CA", "short-copy", Self.counts(410, 250)),
            ("en-US", "control", Self.counts(900, 450)), ("en-US", "short-copy", Self.counts(880, 430)),
        ]
        let breakdown = Self.breakdown(rows)
        #expect(breakdown.segments.map(\.value) == ["en-US", "fr-CA"])  // most exposed first
        for segment in breakdown.segments {
            let expected = try ExperimentAnalysis.analyze(
                experimentKey: "camera-prime-copy", feature: "camera",
                variants: Self.variants.map { variant in
                    (
                        variant.name, variant.weight,
                        rows.first { $0.value == segment.value && $0.variant == variant.name }!.counts
                    )
                }, controlName: "control")
            #expect(segment.variants.map(\.grantRateInterval) == expected.variants.map(\.grantRateInterval))
            #expect(segment.variants.map(\.comparison) == expected.variants.map(\.comparison))
            // The whole analysis would decide fr-CA's big difference; a segment never does.
            #expect(
                segment.variants.allSatisfy {
                    $0.verdict == nil && $0.taskVerdict == nil && $0.additionalInstallsPerArm == nil
                })
        }
        let french = try #require(breakdown.segments.first { $0.value == "fr-CA" }?.variants[1].comparison)
        #expect(french.sequentialInterval.lower > 0)
    }

    @Test func valuesBeyondTheShownOnesJoinOtherAndUnknownComesLast() {
        var rows: [(value: String, variant: String, counts: FunnelCounts)] = []
        // 14 named values exposing 14…1 installs per arm, plus stored "other" and "unknown" rows.
        for index in 0..<14 {
            let value = "l\(index)"
            for variant in ["control", "short-copy"] { rows.append((value, variant, Self.counts(14 - index, 0))) }
        }
        rows.append((EventSegment.otherValue, "control", Self.counts(5, 1)))
        rows.append((EventSegment.unknownValue, "short-copy", Self.counts(7, 2)))
        rows.append(("l0", "ghost", Self.counts(1000, 0)))  // an arm not in the report: ignored
        let breakdown = Self.breakdown(rows)
        let values = breakdown.segments.map(\.value)
        #expect(values == (0..<SegmentBreakdown.shownValues).map { "l\($0)" } + ["other", "unknown"])
        let other = breakdown.segments[SegmentBreakdown.shownValues]
        // l10…l13 expose 4+3+2+1 per arm; "other" adds its stored 5 to control.
        #expect(other.variants.map(\.funnel.exposed) == [10 + 5, 10])
        let total = breakdown.segments.reduce(0) { $0 + $1.exposed }
        #expect(total == rows.filter { $0.variant != "ghost" }.reduce(0) { $0 + $1.counts.exposed })
    }

    @Test func aSegmentWithoutAControlExposureHasRatesButNoComparison() {
        let breakdown = Self.breakdown([("ja-JP", "short-copy", Self.counts(3, 1))])
        let segment = breakdown.segments[0]
        #expect(segment.variants.map(\.funnel.exposed) == [0, 3])
        #expect(segment.variants[1].grantRate == 1.0 / 3)
        #expect(segment.variants[1].comparison == nil)
    }

    @Test func encodesEachSegmentWithTheReportsVariantShape() throws {
        let breakdown = Self.breakdown([
            ("de", "control", Self.counts(200, 100)), ("de", "short-copy", Self.counts(200, 120)),
        ])
        let json = breakdown.encodeJSON()
        #expect(json[0]?["value"] == .string("de"))
        #expect(json[0]?["exposed"] == .integer(400))
        let arm = try #require(json[0]?["variants"]?[1])
        #expect(arm["name"] == .string("short-copy"))
        #expect(arm["verdict"] == .null)
        #expect(arm["grantRate"] == .double(0.6))
        #expect(arm["comparison"]?["sequentialInterval"]?["lower"] != nil)
    }
}
