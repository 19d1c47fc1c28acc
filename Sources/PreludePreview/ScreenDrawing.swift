import PreludeCore

/// Draws one ``PreviewScreen`` as a `<figure>`: a caption, the screen in light and dark at iOS geometry, its lint
/// findings and overflow warnings, and (for a changed screen) the live screen beside it.
///
/// Every figure carries `data-feature`, `data-locale`, `data-variant`, `data-action`, `data-screen`,
/// `data-overflow` (the fields the measure says overflow, space-separated) and `data-change`, and every text box
/// the class `t`, so tests can find them.
enum ScreenDrawing {
    /// Appends the figure for `screen` (measured: `measured.measure`) to `html`; `live` is the live screen drawn
    /// beside a changed one; `trackingSheet`, the system's full-page tracking request drawn after the screen (the
    /// priming screen of `tracking`, when the policy carries its purpose strings).
    static func figure(
        _ measured: MeasuredScreen, change: PreviewComparison.Change?, live: PreviewScreen?, removed: Bool,
        trackingSheet: TrackingRequestSheet? = nil, into html: inout String
    ) {
        let screen = measured.screen
        let measure = measured.measure
        let geometry = measure.geometry
        let allFindings = screen.allFindings
        html += "<figure class=\"screen "
        html += geometry.presentation.rawValue
        if let change, change != .unchanged {
            html += " "
            html += change.rawValue
        }
        if removed { html += " removed" }
        if !allFindings.isEmpty { html += " has-findings" }
        if measure.overflows { html += " overflowing" }
        html += "\" id=\""
        html += PreviewRenderer.screenAnchor(screen, removed: removed)
        html += "\" data-feature=\""
        html += screen.feature.rawValue
        html += "\" data-locale=\""
        html += HTMLEscaping.escape(screen.locale.description)
        html += "\" data-variant=\""
        html += HTMLEscaping.escape(screen.variant.id)
        html += "\" data-action=\""
        html += screen.action.rawValue
        html += "\" data-screen=\""
        html += screen.screen.rawValue
        html += "\" data-overflow=\""
        for (number, item) in measure.overflow.enumerated() {
            if number > 0 { html += " " }
            html += item.field.rawValue
        }
        html += "\" data-findings=\"\(allFindings.count)\" data-change=\""
        html += removed ? "removed" : (change?.rawValue ?? "none")
        html += "\">\n<figcaption><strong>"
        html += screen.action.rawValue
        html += "</strong> · "
        html += geometry.presentation.rawValue
        if let style = screen.style {
            html += " · style "
            html += style.rawValue
        }
        if let change, change != .unchanged {
            html += " <span class=\"badge changed\">"
            html += change.rawValue
            html += "</span>"
        }
        if removed { html += " <span class=\"badge changed\">removed</span>" }
        html += "<br><small>"
        html += HTMLEscaping.escape(screen.id)
        html += "</small></figcaption>\n<div class=\"devices\">"
        if let live {
            html += "<div class=\"side\"><p class=\"side-label\">proposed</p>"
            devices(screen, measure: measure, into: &html)
            html += "</div><div class=\"side live\"><p class=\"side-label\">live</p>"
            devices(live, measure: ScreenMeasure(live), into: &html)
            html += "</div>"
        } else {
            devices(screen, measure: measure, into: &html)
        }
        trackingSheet?.draw(
            direction: TextDirection(screen.locale), lang: HTMLEscaping.escape(screen.locale.description), into: &html)
        html += "</div>\n"
        notes(screen, measure: measure, into: &html)
        html += "</figure>\n"
    }

    // MARK: Devices

    /// The screen drawn light, then dark: the same drawing in two themed frames (drawn once: at the size limit a
    /// preview has tens of thousands of screens).
    private static func devices(_ screen: PreviewScreen, measure: ScreenMeasure, into html: inout String) {
        let geometry = measure.geometry
        let direction = TextDirection(screen.locale)
        var drawing = ""
        switch geometry.presentation {
        case .alert: alert(screen, geometry: geometry, buttons: measure.buttons, into: &drawing)
        case .sheet: sheet(screen, geometry: geometry, into: &drawing)
        }
        let lang = HTMLEscaping.escape(screen.locale.description)
        for theme in ["light", "dark"] {
            html += "<div class=\"device "
            html += geometry.presentation.rawValue
            html += " "
            html += theme
            html += "\" dir=\""
            html += direction.rawValue
            html += "\" lang=\""
            html += lang
            html += "\" data-theme=\""
            html += theme
            html += "\">"
            html += drawing
            html += "</div>"
        }
    }

    private static func alert(
        _ screen: PreviewScreen, geometry: ScreenGeometry, buttons: Int, into html: inout String
    ) {
        html += "<div class=\"backdrop\"><div class=\"alert-box\"><div class=\"alert-text\">"
        text(screen, .title, geometry: geometry, buttons: buttons, into: &html)
        text(screen, .message, geometry: geometry, buttons: buttons, into: &html)
        html += buttons > 1 ? "</div><div class=\"alert-buttons row\">" : "</div><div class=\"alert-buttons stacked\">"
        // iOS puts the cancel action on the leading side and the preferred action, in bold, on the trailing side.
        let order: [CopyField] =
            screen.screen == .settings ? [.cancelLabel, .openLabel] : [.cancelLabel, .continueLabel]
        for field in order where PreviewScreen.fields(of: screen.screen, style: screen.style).contains(field) {
            text(
                screen, field, geometry: geometry, buttons: buttons,
                extraClass: field == .cancelLabel ? "cancel" : "primary", into: &html)
        }
        html += "</div></div></div>"
        if screen.action == .limitedPicker {
            html += "<p class=\"then\">then the system’s limited-access picker</p>"
        }
    }

    private static func sheet(_ screen: PreviewScreen, geometry: ScreenGeometry, into html: inout String) {
        html += "<div class=\"page\"><div class=\"glyph\" aria-hidden=\"true\"></div>"
        switch screen.screen {
        case .button:
            text(screen, .caption, geometry: geometry, buttons: 1, into: &html)
            html +=
                screen.action == .locationButton
                ? "<div class=\"system-button\">LocationButton (drawn by iOS)</div>"
                : "<div class=\"system-button\">ContactAccessButton (drawn by iOS)</div>"
        default:
            text(screen, .title, geometry: geometry, buttons: 1, into: &html)
            text(screen, .message, geometry: geometry, buttons: 1, into: &html)
            if screen.screen == .prime {
                html += "<div class=\"actions\">"
                text(screen, .continueLabel, geometry: geometry, buttons: 1, extraClass: "capsule", into: &html)
                html += "</div>"
            }
        }
        html += "</div>"
    }

    private static func text(
        _ screen: PreviewScreen, _ field: CopyField, geometry: ScreenGeometry, buttons: Int, extraClass: String? = nil,
        into html: inout String
    ) {
        let box = geometry.box(for: field, buttons: buttons)
        guard let item = screen.texts.first(where: { $0.field == field }) else {
            if screen.missing.contains(field) {
                html += "<p class=\"t t-"
                html += field.rawValue
                html += " missing\" style=\""
                style(of: box, into: &html)
                html += "\" data-field=\""
                html += field.rawValue
                html += "\">no "
                html += field.rawValue
                html += "</p>"
            }
            return
        }
        // A button's padding sits on a wrapper, so the text box itself is exactly the budget the measure uses.
        if let extraClass {
            html += "<div class=\"button "
            html += extraClass
            html += "\">"
        }
        html += "<p class=\"t t-"
        html += field.rawValue
        if !item.findings.isEmpty { html += " flagged" }
        if box.maxLines == 1 { html += " one-line" }
        html += "\" style=\""
        style(of: box, into: &html)
        html += "\" data-field=\""
        html += field.rawValue
        html += "\""
        // The source pointer shows on hover: where in the document to edit this text.
        if let source = item.source {
            html += " title=\""
            html += HTMLEscaping.escape(source.description)
            html += "\""
        }
        html += ">"
        if item.findings.isEmpty {
            html += HTMLEscaping.escape(item.text)
        } else {
            html += HTML.highlight(item.text, words: HTML.offendingWords(in: item.text, findings: item.findings))
        }
        html += "</p>"
        if extraClass != nil { html += "</div>" }
    }

    /// `font-size:…px;line-height:…px;max-height:…px;font-weight:…` of `box`.
    private static func style(of box: ScreenGeometry.TextBox, into html: inout String) {
        html += "font-size:"
        html += points(box.fontSize)
        html += "px;line-height:"
        html += points(box.lineHeight)
        html += "px;max-height:"
        html += points(box.maxHeight)
        html += "px;font-weight:"
        html += String(box.weight)
    }

    private static func points(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : "\(value)"
    }

    // MARK: Notes

    private static func notes(_ screen: PreviewScreen, measure: ScreenMeasure, into html: inout String) {
        var items: [String] = []
        for (field, needed) in measure.overflow {
            let box = measure.geometry.box(for: field, buttons: measure.buttons)
            items.append(
                "<li class=\"overflow\" data-field=\"\(field.rawValue)\"><span class=\"rule\">overflow</span> "
                    + "\(field.rawValue) needs about \(needed) lines; the screen shows \(box.maxLines)</li>")
        }
        for field in screen.missing {
            items.append(
                "<li class=\"missing\" data-field=\"\(field.rawValue)\"><span class=\"rule\">no text</span> "
                    + "no locale on the fallback chain has \(screen.screen.rawValue).\(field.rawValue)</li>")
        }
        var findings: [(CopyField?, LintFinding)] = screen.findings.map { (nil, $0) }
        for item in screen.texts { findings += item.findings.map { (item.field, $0) } }
        for (field, finding) in findings {
            var item =
                "<li class=\"finding sev-\(finding.severity.rawValue)\" data-rule=\"\(HTMLEscaping.escape(finding.ruleId))\""
            item += " data-severity=\"\(finding.severity.rawValue)\">"
            item += "<span class=\"rule\">\(HTMLEscaping.escape(finding.ruleId))</span> \(finding.severity.rawValue)"
            if let field { item += " · \(field.rawValue)" }
            item +=
                ": \(HTMLEscaping.escape(finding.message)) <code>\(HTMLEscaping.escape(finding.pointer.description))</code></li>"
            items.append(item)
        }
        guard !items.isEmpty else { return }
        html += "<ul class=\"notes\">\n"
        html += items.joined(separator: "\n")
        html += "\n</ul>\n"
    }
}
