// The `results` target: experiment analysis over hostile counts, weights and query values.
import PreludeCore

/// `results`: what the results endpoint and `prelude results` feed the analysis — a `minimumEffect` query value
/// (any text), a control name and per-variant weights and funnel counts (aggregated from events, so attacker-shaped).
///
/// The input is a JSON object `{"minimumEffect": <text or number>, "control": ..., "alpha": ..., "power": ...,
/// "variants": [{"name": ..., "weight": ..., "counts": {"exposed": ..., ...}}]}`; anything else is taken whole as
/// the `minimumEffect` text over a fixed two-arm experiment. The analysis either refuses the input with an
/// `ExperimentAnalysisError` or produces a report whose JSON parses back and whose table renders; nothing traps.
func fuzzResults(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let object = try? JSONParser().parse(bytes: bytes), object.objectValue != nil else {
        let raw = String(decoding: bytes, as: UTF8.self)
        analyze(minimumEffectText: raw, control: "control", settings: .standard, variants: fixedArms)
        return
    }
    let effectText =
        object["minimumEffect"]?.stringValue ?? object["minimumEffect"]?.doubleValue.map { "\($0)" } ?? "0.02"
    var settings = ExperimentAnalysis.Settings.standard
    if let alpha = object["alpha"]?.doubleValue { settings.alpha = alpha }
    if let power = object["power"]?.doubleValue { settings.power = power }
    if let minimum = object["minimumExposures"]?.intValue { settings.minimumExposures = minimum }
    let variants = (object["variants"]?.arrayValue ?? []).prefix(16).map { variant in
        let counts = variant["counts"]
        func count(_ name: String) -> Int { counts?[name]?.intValue ?? 0 }
        return (
            name: variant["name"]?.stringValue ?? "",
            weight: variant["weight"]?.doubleValue ?? 1,
            counts: FunnelCounts(
                exposed: count("exposed"), primeShown: count("primeShown"), primeContinued: count("primeContinued"),
                primeDismissed: count("primeDismissed"), systemGranted: count("systemGranted"),
                systemDenied: count("systemDenied"), settingsOpened: count("settingsOpened"),
                returnedGranted: count("returnedGranted"), granted: count("granted"))
        )
    }
    analyze(
        minimumEffectText: effectText, control: object["control"]?.stringValue ?? "control", settings: settings,
        variants: Array(variants))
}

private let fixedArms: [(name: String, weight: Double, counts: FunnelCounts)] = [
    ("control", 1, FunnelCounts(exposed: 5_000, primeShown: 5_000, systemGranted: 2_000, granted: 2_000)),
    ("short-copy", 1, FunnelCounts(exposed: 5_100, primeShown: 5_100, systemGranted: 2_300, granted: 2_300)),
]

/// The endpoint's path: the query text must parse as a usable effect (ResultsRoutes), then the analysis runs.
private func analyze(
    minimumEffectText: String, control: String, settings: ExperimentAnalysis.Settings,
    variants: [(name: String, weight: Double, counts: FunnelCounts)]
) {
    guard let effect = Double(minimumEffectText), ExperimentAnalysis.isValidMinimumEffect(effect) else { return }
    let report: ExperimentReport
    do {
        report = try ExperimentAnalysis.analyze(
            experimentKey: "fuzz", feature: "camera", variants: variants, controlName: control,
            minimumEffect: effect, settings: settings)
    } catch {
        _ = error.description
        return
    }
    let json = report.encodeJSON().serializedBytes()
    guard (try? JSONParser().parse(json)) != nil else {
        fuzzFailure("a results report does not serialize to JSON", String(decoding: json, as: UTF8.self))
    }
    _ = report.renderTable()
}
