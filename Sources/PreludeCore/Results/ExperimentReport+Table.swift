extension ExperimentReport {
    /// A plain-text rendering for `prelude results`: a header, a loud sample-ratio warning when it applies, the
    /// funnel table, the grant-rate table and the sample-size line. ASCII only, columns aligned with spaces.
    public func renderTable() -> String {
        let confidence = DecimalFormat.fixed(confidenceLevel * 100, digits: 0) + "%"
        var lines: [String] = []
        lines.append(
            "Experiment \(experimentKey) on \(feature), control \"\(controlName)\"; \(totalExposed) installs exposed")
        if let message = sampleRatio.message {
            let bar = String(repeating: "!", count: 78)
            lines += ["", bar, "!! " + message, bar]
        }

        lines += ["", "Funnel (unique installs)"]
        // The task columns only when some install started a task: grant-only experiments keep their table.
        let hasTasks = variants.contains { $0.funnel.taskStarted > 0 }
        let counters = FunnelCounter.allCases.filter { hasTasks || $0.measure == .grant }
        let funnelRows = variants.map { variant in
            [label(variant), DecimalFormat.percent(variant.weight, digits: 1)]
                + counters.map { String(variant.funnel[$0]) }
        }
        lines += Self.columns(header: ["variant", "weight"] + counters.map(\.label), rows: funnelRows)

        lines += ["", "Grant rate = granted / exposed, \(confidence) intervals"]
        let rateRows = variants.map { variant -> [String] in
            let rate = variant.grantRate.map { DecimalFormat.percent($0) } ?? "-"
            let interval =
                variant.grantRateInterval.map {
                    "[" + DecimalFormat.percent($0.lower) + ", " + DecimalFormat.percent($0.upper) + "]"
                } ?? "-"
            guard !variant.isControl else { return [label(variant), rate, interval, "", "", "", "(control)", ""] }
            let difference = variant.comparison.map { DecimalFormat.points($0.difference) } ?? "-"
            // The always-valid figures only: the fixed-horizon ones invite peeking (they are in the JSON).
            let differenceInterval =
                variant.comparison.map {
                    "[" + DecimalFormat.points($0.sequentialInterval.lower).dropLast(3) + ", "
                        + DecimalFormat.points($0.sequentialInterval.upper) + "]"
                } ?? "-"
            let p = variant.comparison.map { DecimalFormat.pValue($0.adjustedSequentialPValue) } ?? "-"
            let more = variant.additionalInstallsPerArm.map(String.init) ?? "-"
            return [
                label(variant), rate, interval, difference, differenceInterval, p,
                variant.verdict?.label ?? "-", more,
            ]
        }
        lines += Self.columns(
            header: [
                "variant", "grant rate", "\(confidence) CI", "vs control", "\(confidence) CS", "p (any look)",
                "verdict", "more per arm",
            ],
            rows: rateRows)

        if hasTasks {
            lines += ["", "Task completion = task done / task started, \(confidence) intervals"]
            lines += Self.columns(
                header: [
                    "variant", "completion", "\(confidence) CI", "vs control", "\(confidence) CS", "p (any look)",
                    "verdict",
                ],
                rows: variants.map(taskRow))
        }

        lines.append("")
        if variants.count > 2 {
            lines.append("p (any look) is Holm-adjusted over the \(variants.count - 1) comparisons with the control.")
        }
        lines.append(
            "CS and p are always valid (mixture SPRT): look as often as you like; the verdict holds at every look.")
        let effect = DecimalFormat.fixed(minimumEffect * 100, digits: 2) + " pp"
        let alphaPower =
            "alpha \(DecimalFormat.shortest(settings.alpha)), power \(DecimalFormat.shortest(settings.power))"
        if let required = requiredInstallsPerArm, let rate = control.grantRate {
            lines.append(
                "Detecting a change of \(effect) from the control's \(DecimalFormat.percent(rate)) needs "
                    + "\(required) installs per arm (\(alphaPower)).")
        } else {
            lines.append("Sample size unknown until the control has exposed installs.")
        }
        if let chiSquare = sampleRatio.chiSquare, let p = sampleRatio.pValue, !sampleRatio.isMismatch {
            lines.append(
                "Sample ratio OK: chi-square \(DecimalFormat.fixed(chiSquare, digits: 2)), "
                    + "\(sampleRatio.degreesOfFreedom) df, p = \(DecimalFormat.pValue(p)) "
                    + "(flagged below \(DecimalFormat.shortest(sampleRatio.threshold))).")
        } else if sampleRatio.isMismatch {
            lines.append("SAMPLE RATIO MISMATCH: the figures above cannot be trusted.")
        } else {
            lines.append("Sample ratio not checked: it needs exposures and at least two weighted variants.")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func taskRow(_ variant: VariantResult) -> [String] {
        let rate = variant.taskCompletionRate.map { DecimalFormat.percent($0) } ?? "-"
        let interval =
            variant.taskCompletionRateInterval.map {
                "[" + DecimalFormat.percent($0.lower) + ", " + DecimalFormat.percent($0.upper) + "]"
            } ?? "-"
        guard !variant.isControl else { return [label(variant), rate, interval, "", "", "", "(control)"] }
        let comparison = variant.taskComparison
        return [
            label(variant), rate, interval, comparison.map { DecimalFormat.points($0.difference) } ?? "-",
            comparison.map {
                "[" + DecimalFormat.points($0.sequentialInterval.lower).dropLast(3) + ", "
                    + DecimalFormat.points($0.sequentialInterval.upper) + "]"
            } ?? "-",
            comparison.map { DecimalFormat.pValue($0.adjustedSequentialPValue) } ?? "-",
            variant.taskVerdict?.label ?? "-",
        ]
    }

    private func label(_ variant: VariantResult) -> String {
        variant.isControl ? variant.name + " *" : variant.name
    }

    // The first column is left-aligned (names), the others right-aligned (numbers), two spaces apart.
    private static func columns(header: [String], rows: [[String]]) -> [String] {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            row.indices.map { column in
                let padding = String(repeating: " ", count: widths[column] - row[column].count)
                return column == 0 ? row[column] + padding : padding + row[column]
            }.joined(separator: "  ")
        }.map { line in
            var trimmed = Substring(line)
            while trimmed.last == " " { trimmed = trimmed.dropLast() }
            return String(trimmed)
        }
    }
}
