import PreludeCore

/// Renders a policy preview as one self-contained HTML page: inline CSS, no script, no network, no external
/// asset; the system font stack. Deterministic: the same input gives the same bytes (no clock, stable order).
///
/// The page starts with an index (app, origin, revision, SHA-256, counts; a table to jump by feature, locale and
/// variant; every lint finding with the screens that show it; with a live document, the changed screens), then one
/// section per feature, locale and variant holding its screens. Each screen is drawn light and dark (a switch at
/// the top shows one or both), right to left for right-to-left locales, with its lint findings (offending words in
/// `<mark>`), its overflow warnings (``ScreenGeometry``) and, next to a live document, the live screen.
package enum PreviewRenderer {
    /// The page for `input`; with `live`, changed screens are marked and drawn beside the live ones.
    package static func render(_ input: PreviewInput, comparedWith live: PreviewInput? = nil) -> String {
        let comparison = live.map { PreviewComparison(proposed: input.screens, live: $0.screens) }
        let app = input.document.app
        // Each screen is measured once, and the screens grouped by section once, for the index and the sections.
        let measured = input.screens.map(MeasuredScreen.init)
        let grouped = group(measured)
        var html = ""
        // About 2 kB a screen: one allocation instead of a doubling series for a page of tens of megabytes.
        html.reserveCapacity(4096 + 2200 * measured.count)
        html += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        html += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        html +=
            "<title>Prelude preview: \(HTMLEscaping.escape(app.name)) (\(HTMLEscaping.escape(input.origin)))</title>\n"
        html += "<style>\n\(PreviewStyleSheet.css)</style>\n</head>\n<body>\n"
        html += "<input type=\"radio\" name=\"theme\" id=\"show-both\" checked>"
        html += "<input type=\"radio\" name=\"theme\" id=\"show-light\">"
        html += "<input type=\"radio\" name=\"theme\" id=\"show-dark\">\n"
        html += index(input, measured: measured, grouped: grouped, live: live, comparison: comparison)
        html += "<main>\n"
        sections(input, grouped: grouped, comparison: comparison, into: &html)
        if let comparison, !comparison.removed.isEmpty {
            html += "<section class=\"removed\" id=\"removed\"><h2>Screens the change removes</h2>\n"
            for screen in comparison.removed {
                ScreenDrawing.figure(MeasuredScreen(screen), change: nil, live: nil, removed: true, into: &html)
            }
            html += "</section>\n"
        }
        html += "</main>\n</body>\n</html>\n"
        return html
    }

    // MARK: Index

    private static func index(
        _ input: PreviewInput, measured: [MeasuredScreen], grouped: [String: [MeasuredScreen]], live: PreviewInput?,
        comparison: PreviewComparison?
    ) -> String {
        let app = input.document.app
        let screens = input.screens
        let overflowing = measured.filter(\.measure.overflows)
        var html = "<header id=\"index\">\n<h1>Preview of \(HTMLEscaping.escape(app.name))</h1>\n<dl class=\"facts\">\n"
        html += fact(
            "App",
            "<code>\(HTMLEscaping.escape(app.id))</code>, default locale \(HTMLEscaping.escape(app.defaultLocale.description))"
        )
        html += fact("Document", HTMLEscaping.escape(input.origin), id: "origin")
        html += fact("Revision", input.revision.map { "\($0)" } ?? "not saved", id: "revision")
        html += fact("SHA-256", "<code>\(HTMLEscaping.escape(input.sha256))</code>", id: "sha256")
        let severities = LintSeverity.allCases.map { severity in
            "\(input.findings.filter { $0.severity == severity }.count) \(severity.rawValue)s"
        }
        html += fact(
            "Screens",
            "\(screens.count) screens; lint: \(severities.joined(separator: ", ")); "
                + "\(overflowing.count) with a text that overflows", id: "counts")
        if let live, let comparison {
            html += fact(
                "Compared with",
                "\(HTMLEscaping.escape(live.origin)), SHA-256 <code>\(HTMLEscaping.escape(live.sha256))</code>: "
                    + "\(comparison.count(.changed)) changed, \(comparison.count(.added)) added, "
                    + "\(comparison.removed.count) removed", id: "compared")
        }
        html += "</dl>\n"
        html += "<p class=\"switch\">Show <label for=\"show-both\">light and dark</label> · "
        html += "<label for=\"show-light\">light</label> · <label for=\"show-dark\">dark</label></p>\n"

        // Jump by feature, locale and variant.
        let locales = PreviewCatalogue.locales(of: input.document)
        html += "<table class=\"jump\"><thead><tr><th>feature</th>"
        for locale in locales { html += "<th>\(HTMLEscaping.escape(locale.description))</th>" }
        html += "</tr></thead><tbody>\n"
        for policy in input.document.orderedFeatures {
            let feature = policy.feature.rawValue
            html += "<tr><th><a href=\"#\(featureAnchor(policy.feature))\">\(feature)</a></th>"
            for locale in locales {
                html += "<td>"
                let variants = PreviewCatalogue.variants(of: policy, in: input.document)
                var links: [String] = []
                for (number, variant) in variants.enumerated() {
                    let inSection = grouped[sectionKey(policy.feature, locale, variant)] ?? []
                    guard !inSection.isEmpty else { continue }
                    var badges = ""
                    let errors = inSection.flatMap(\.screen.allFindings).filter { $0.severity == .error }.count
                    if errors > 0 { badges += " <span class=\"badge error\">\(errors)</span>" }
                    if inSection.contains(where: \.measure.overflows) {
                        badges += " <span class=\"badge overflow\">overflow</span>"
                    }
                    if let comparison,
                        inSection.contains(where: { comparison.change(of: $0.screen.id) != .unchanged })
                    {
                        badges += " <span class=\"badge changed\">changed</span>"
                    }
                    links.append(
                        "<a href=\"#\(variantAnchor(policy.feature, locale, number))\">"
                            + "\(HTMLEscaping.escape(variant.label))</a>\(badges)")
                }
                html += links.joined(separator: "<br>")
                html += "</td>"
            }
            html += "</tr>\n"
        }
        html += "</tbody></table>\n"

        if let comparison {
            html += "<h2>Changed screens</h2>\n<ul class=\"changes\">\n"
            for screen in screens where comparison.change(of: screen.id) != .unchanged {
                let change = comparison.change(of: screen.id)
                html +=
                    "<li class=\"\(change.rawValue)\"><a href=\"#\(screenAnchor(screen))\">"
                    + "\(HTMLEscaping.escape(screen.id))</a> \(change.rawValue)</li>\n"
            }
            for screen in comparison.removed {
                html +=
                    "<li class=\"removed\"><a href=\"#\(screenAnchor(screen, removed: true))\">"
                    + "\(HTMLEscaping.escape(screen.id))</a> removed</li>\n"
            }
            html += "</ul>\n"
        }

        html += findings(input)
        html += "</header>\n"
        return html
    }

    /// The index's table of every lint finding, each with the screens that show it.
    private static func findings(_ input: PreviewInput) -> String {
        let screens = input.screens
        var html = "<h2>Lint findings</h2>\n"
        if input.findings.isEmpty {
            html += "<p class=\"clean\">No lint findings.</p>\n"
        } else {
            html += "<table class=\"all-findings\"><thead><tr><th>severity</th><th>rule</th><th>pointer</th>"
            html += "<th>message</th><th>shown on</th></tr></thead><tbody>\n"
            // Which screens show each finding, in page order (one pass over the screens).
            var showingByFinding: [LintFinding: [PreviewScreen]] = [:]
            for screen in screens {
                for finding in Set(screen.allFindings) { showingByFinding[finding, default: []].append(screen) }
            }
            for finding in input.findings {
                let showing = showingByFinding[finding] ?? []
                let shown =
                    showing.first.map { first in
                        "<a href=\"#\(screenAnchor(first))\">\(HTMLEscaping.escape(first.id))</a>"
                            + (showing.count > 1 ? " and \(showing.count - 1) more" : "")
                    } ?? "no screen (this value is never shown)"
                html += "<tr class=\"sev-\(finding.severity.rawValue)\"><td>\(finding.severity.rawValue)</td>"
                html +=
                    "<td>\(HTMLEscaping.escape(finding.ruleId))</td><td><code>\(HTMLEscaping.escape(finding.pointer.description))"
                html += "</code></td><td>\(HTMLEscaping.escape(finding.message))</td><td>\(shown)</td></tr>\n"
            }
            html += "</tbody></table>\n"
        }
        return html
    }

    private static func fact(_ name: String, _ value: String, id: String? = nil) -> String {
        "<dt>\(name)</dt><dd\(id.map { " id=\"\($0)\"" } ?? "")>\(value)</dd>\n"
    }

    // MARK: Sections

    private static func sections(
        _ input: PreviewInput, grouped: [String: [MeasuredScreen]], comparison: PreviewComparison?,
        into html: inout String
    ) {
        let locales = PreviewCatalogue.locales(of: input.document)
        for policy in input.document.orderedFeatures {
            let feature = policy.feature
            html += "<section class=\"feature\" id=\"\(featureAnchor(feature))\">"
            html += "<h2>\(feature.rawValue) <a class=\"top\" href=\"#index\">index</a></h2>\n"
            let variants = PreviewCatalogue.variants(of: policy, in: input.document)
            for locale in locales {
                for (number, variant) in variants.enumerated() {
                    let screens = grouped[sectionKey(feature, locale, variant)] ?? []
                    guard !screens.isEmpty else { continue }
                    html += "<section class=\"variant\" id=\"\(variantAnchor(feature, locale, number))\">"
                    html += "<h3>\(feature.rawValue) · \(HTMLEscaping.escape(locale.description)) · "
                    html += "\(HTMLEscaping.escape(variant.label))</h3>\n<div class=\"screens\">\n"
                    // The system's full-page tracking request follows the priming screen (iOS 27.2).
                    let sheet =
                        feature == .tracking ? TrackingRequestSheet(document: input.document, locale: locale) : nil
                    for measured in screens {
                        let change = comparison?.change(of: measured.screen.id)
                        let live = change == .changed ? comparison?.live[measured.screen.id] : nil
                        ScreenDrawing.figure(
                            measured, change: change, live: live, removed: false,
                            trackingSheet: measured.screen.action == .prime ? sheet : nil, into: &html)
                    }
                    html += "</div></section>\n"
                }
            }
            html += "</section>\n"
        }
    }

    /// The screens by feature, locale and variant, each list in catalogue order: one pass, so a large policy is
    /// not scanned once per section.
    private static func group(_ screens: [MeasuredScreen]) -> [String: [MeasuredScreen]] {
        Dictionary(grouping: screens) { sectionKey($0.screen.feature, $0.screen.locale, $0.screen.variant) }
    }

    private static func sectionKey(_ feature: Feature, _ locale: LocaleTag, _ variant: PreviewVariant) -> String {
        "\(feature.rawValue)/\(locale)/\(variant.id)"
    }

    // MARK: Anchors

    static func featureAnchor(_ feature: Feature) -> String { "f.\(feature.rawValue)" }

    static func variantAnchor(_ feature: Feature, _ locale: LocaleTag, _ number: Int) -> String {
        "v.\(feature.rawValue).\(locale).\(number)"
    }

    /// A screen's anchor: ids of variants may hold any character, so the variant is given by its place.
    static func screenAnchor(_ screen: PreviewScreen, removed: Bool = false) -> String {
        let kind: String
        switch screen.variant.kind {
        case .base: kind = "base"
        case .rule(let index, _): kind = "r\(index)"
        case .experiment(let experiment, _, let variant, _): kind = "e\(experiment)-\(variant)"
        }
        return
            "\(removed ? "removed" : "s").\(screen.feature.rawValue).\(screen.locale).\(kind).\(screen.action.rawValue)"
    }
}
