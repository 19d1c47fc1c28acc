extension ExperimentReport {
    /// The report as JSON for the admin API: rates and differences as fractions (0.45, not 45), absent figures as
    /// `null`, variants in the order given. docs/results.md shows an example.
    public func encodeJSON() -> JSONValue {
        .object(
            JSONObject([
                ("experimentKey", .string(experimentKey)),
                ("feature", .string(feature)),
                ("control", .string(controlName)),
                ("confidenceLevel", .double(confidenceLevel)),
                ("alpha", .double(settings.alpha)),
                ("power", .double(settings.power)),
                ("minimumEffect", .double(minimumEffect)),
                ("minimumExposures", .integer(settings.minimumExposures)),
                ("totalExposed", .integer(totalExposed)),
                ("trustworthy", .bool(isTrustworthy)),
                ("requiredInstallsPerArm", Self.integer(requiredInstallsPerArm)),
                ("sampleRatio", Self.encode(sampleRatio)),
                ("variants", .array(variants.map(Self.encode))),
            ]))
    }

    /// One arm as the report's `variants` hold it (also a segment's, ``SegmentBreakdown/encodeJSON()``).
    static func encode(_ variant: VariantResult) -> JSONValue {
        .object(
            JSONObject([
                ("name", .string(variant.name)),
                ("control", .bool(variant.isControl)),
                ("weight", .double(variant.weight)),
                ("funnel", .object(JSONObject(variant.funnel.fields.map { ($0.name, .integer($0.value)) }))),
                ("grantRate", number(variant.grantRate)),
                ("grantRateInterval", encode(variant.grantRateInterval)),
                ("comparison", variant.comparison.map(encode) ?? .null),
                ("verdict", variant.verdict.map { .string($0.rawValue) } ?? .null),
                ("additionalInstallsPerArm", integer(variant.additionalInstallsPerArm)),
                ("taskCompletionRate", number(variant.taskCompletionRate)),
                ("taskCompletionRateInterval", encode(variant.taskCompletionRateInterval)),
                ("taskComparison", variant.taskComparison.map(encode) ?? .null),
                ("taskVerdict", variant.taskVerdict.map { .string($0.rawValue) } ?? .null),
            ]))
    }

    private static func encode(_ comparison: VariantComparison) -> JSONValue {
        .object(
            JSONObject([
                ("difference", .double(comparison.difference)),
                ("differenceInterval", encode(comparison.differenceInterval)),
                ("relativeDifference", number(comparison.relativeDifference)),
                ("zStatistic", .double(comparison.zStatistic)),
                ("pValue", .double(comparison.pValue)),
                ("sequentialPValue", .double(comparison.sequentialPValue)),
                ("sequentialInterval", encode(comparison.sequentialInterval)),
                ("adjustedSequentialPValue", .double(comparison.adjustedSequentialPValue)),
            ]))
    }

    private static func encode(_ check: SampleRatioCheck) -> JSONValue {
        .object(
            JSONObject([
                ("observed", .array(check.observed.map { .integer($0) })),
                ("expected", .array(check.expected.map { .double($0) })),
                // An install in a variant weighted 0 makes the statistic infinite, which JSON cannot hold: null,
                // with pValue 0 and mismatch true telling the story.
                ("chiSquare", number(check.chiSquare.flatMap { $0.isFinite ? $0 : nil })),
                ("degreesOfFreedom", .integer(check.degreesOfFreedom)),
                ("pValue", number(check.pValue)),
                ("threshold", .double(check.threshold)),
                ("mismatch", .bool(check.isMismatch)),
                ("message", check.message.map { .string($0) } ?? .null),
            ]))
    }

    private static func encode(_ interval: ConfidenceInterval?) -> JSONValue {
        guard let interval else { return .null }
        return .object(JSONObject([("lower", .double(interval.lower)), ("upper", .double(interval.upper))]))
    }

    private static func number(_ value: Double?) -> JSONValue { value.map { .double($0) } ?? .null }

    private static func integer(_ value: Int?) -> JSONValue { value.map { .integer($0) } ?? .null }
}
