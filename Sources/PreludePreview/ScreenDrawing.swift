import PreludeCore

/// Draws one ``PreviewScreen`` as a `<figure>`: a caption, the screen in light and dark at iOS geometry, its lint
/// findings and overflow warnings, and (for a changed screen) the live screen beside it.
///
/// Every figure carries `data-feature`, `data-locale`, `data-variant`, `data-action`, `data-screen`,
/// `data-overflow` (the fields the measure says overflow, space-separated) and `data-change`, and every text box
/// the class `t`, so tests can find them.
enum ScreenDrawing {
    /// The figure for `screen`.
    static func figure(_ screen: PreviewScreen, change: PreviewComparison.Change?, live: PreviewScreen?, removed: Bool)
        -> String
    {
        let geometry = ScreenGeometry(action: screen.action, style: screen.style)
        let overflow = overflowingFields(screen)
        var classes = ["screen", geometry.presentation.rawValue]
        if let change, change != .unchanged { classes.append(change.rawValue) }
        if removed { classes.append("removed") }
        if !screen.allFindings.isEmpty { classes.append("has-findings") }
        if !overflow.isEmpty { classes.append("overflowing") }
        var html = "<figure class=\"\(classes.joined(separator: " "))\" "
        html += "id=\"\(PreviewRenderer.screenAnchor(screen, removed: removed))\" "
        html +=
            "data-feature=\"\(screen.feature.rawValue)\" data-locale=\"\(HTMLEscaping.escape(screen.locale.description))\" "
        html += "data-variant=\"\(HTMLEscaping.escape(screen.variant.id))\" data-action=\"\(screen.action.rawValue)\" "
        html += "data-screen=\"\(screen.screen.rawValue)\" "
        html += "data-overflow=\"\(overflow.map(\.rawValue).joined(separator: " "))\" "
        html += "data-findings=\"\(screen.allFindings.count)\" "
        html += "data-change=\"\(removed ? "removed" : (change?.rawValue ?? "none"))\">\n"
        html += "<figcaption><strong>\(screen.action.rawValue)</strong> · \(geometry.presentation.rawValue)"
        if let style = screen.style { html += " · style \(style.rawValue)" }
        if let change, change != .unchanged { html += " <span class=\"badge changed\">\(change.rawValue)</span>" }
        if removed { html += " <span class=\"badge changed\">removed</span>" }
        html += "<br><small>\(HTMLEscaping.escape(screen.id))</small></figcaption>\n"
        html += "<div class=\"devices\">"
        if let live {
            html += "<div class=\"side\"><p class=\"side-label\">proposed</p>"
            html += devices(screen) + "</div>"
            html += "<div class=\"side live\"><p class=\"side-label\">live</p>"
            html += devices(live) + "</div>"
        } else {
            html += devices(screen)
        }
        html += "</div>\n"
        html += notes(screen, overflow: overflow)
        html += "</figure>\n"
        return html
    }

    /// Whether any text of `screen` overflows by the measure.
    static func overflows(_ screen: PreviewScreen) -> Bool { !overflowingFields(screen).isEmpty }

    /// The fields whose text needs more lines than the screen shows.
    static func overflowingFields(_ screen: PreviewScreen) -> [CopyField] {
        let geometry = ScreenGeometry(action: screen.action, style: screen.style)
        let buttons = buttonCount(screen)
        return screen.texts.filter {
            ScreenGeometry.overflows($0.text, in: geometry.box(for: $0.field, buttons: buttons))
        }
        .map(\.field)
    }

    private static let buttonFields: [CopyField] = [.cancelLabel, .continueLabel, .openLabel]

    /// How many buttons share the bottom row: 1 when they are stacked (or there is one).
    private static func buttonCount(_ screen: PreviewScreen) -> Int {
        let geometry = ScreenGeometry(action: screen.action, style: screen.style)
        let fields = PreviewScreen.fields(of: screen.screen, style: screen.style).filter(buttonFields.contains)
        let labels = fields.map { field in screen.texts.first { $0.field == field }?.text ?? "" }
        return geometry.buttonsPerRow(labels: labels)
    }

    // MARK: Devices

    /// The screen drawn light, then dark: the same drawing in two themed frames (drawn once: at the size limit a
    /// preview has tens of thousands of screens).
    private static func devices(_ screen: PreviewScreen) -> String {
        let geometry = ScreenGeometry(action: screen.action, style: screen.style)
        let direction = TextDirection(screen.locale)
        let drawing: String
        switch geometry.presentation {
        case .alert: drawing = alert(screen, geometry: geometry)
        case .sheet: drawing = sheet(screen, geometry: geometry)
        }
        let lang = HTMLEscaping.escape(screen.locale.description)
        var html = ""
        for theme in ["light", "dark"] {
            html += "<div class=\"device \(geometry.presentation.rawValue) \(theme)\" dir=\"\(direction.rawValue)\" "
            html += "lang=\"\(lang)\" data-theme=\"\(theme)\">"
            html += drawing
            html += "</div>"
        }
        return html
    }

    private static func alert(_ screen: PreviewScreen, geometry: ScreenGeometry) -> String {
        let buttons = buttonCount(screen)
        var html = "<div class=\"backdrop\"><div class=\"alert-box\"><div class=\"alert-text\">"
        html += text(screen, .title, geometry: geometry, buttons: buttons)
        html += text(screen, .message, geometry: geometry, buttons: buttons)
        html += "</div><div class=\"alert-buttons \(buttons > 1 ? "row" : "stacked")\">"
        // iOS puts the cancel action on the leading side and the preferred action, in bold, on the trailing side.
        let order: [CopyField] =
            screen.screen == .settings ? [.cancelLabel, .openLabel] : [.cancelLabel, .continueLabel]
        for field in order where PreviewScreen.fields(of: screen.screen, style: screen.style).contains(field) {
            html += text(
                screen, field, geometry: geometry, buttons: buttons,
                extraClass: field == .cancelLabel ? "cancel" : "primary")
        }
        html += "</div></div></div>"
        if screen.action == .limitedPicker {
            html += "<p class=\"then\">then the system’s limited-access picker</p>"
        }
        return html
    }

    private static func sheet(_ screen: PreviewScreen, geometry: ScreenGeometry) -> String {
        var html = "<div class=\"page\"><div class=\"glyph\" aria-hidden=\"true\"></div>"
        switch screen.screen {
        case .button:
            html += text(screen, .caption, geometry: geometry, buttons: 1)
            let name = screen.action == .locationButton ? "LocationButton" : "ContactAccessButton"
            html += "<div class=\"system-button\">\(name) (drawn by iOS)</div>"
        default:
            html += text(screen, .title, geometry: geometry, buttons: 1)
            html += text(screen, .message, geometry: geometry, buttons: 1)
            if screen.screen == .prime {
                html += "<div class=\"actions\">"
                html += text(screen, .continueLabel, geometry: geometry, buttons: 1, extraClass: "capsule")
                html += "</div>"
            }
        }
        html += "</div>"
        return html
    }

    private static func text(
        _ screen: PreviewScreen, _ field: CopyField, geometry: ScreenGeometry, buttons: Int, extraClass: String? = nil
    ) -> String {
        let box = geometry.box(for: field, buttons: buttons)
        let classes = ["t", "t-\(field.rawValue)"]
        let style =
            "font-size:\(points(box.fontSize))px;line-height:\(points(box.lineHeight))px;"
            + "max-height:\(points(box.maxHeight))px;font-weight:\(box.weight)"
        guard let item = screen.texts.first(where: { $0.field == field }) else {
            if screen.missing.contains(field) {
                return "<p class=\"\((classes + ["missing"]).joined(separator: " "))\" style=\"\(style)\" "
                    + "data-field=\"\(field.rawValue)\">no \(field.rawValue)</p>"
            }
            return ""
        }
        var all = ["t", "t-\(field.rawValue)"]
        if !item.findings.isEmpty { all.append("flagged") }
        if box.maxLines == 1 { all.append("one-line") }
        let words = HTML.offendingWords(in: item.text, findings: item.findings)
        // The source pointer shows on hover: where in the document to edit this text.
        let source = item.source.map { " title=\"\(HTMLEscaping.escape($0.description))\"" } ?? ""
        let paragraph =
            "<p class=\"\(all.joined(separator: " "))\" style=\"\(style)\" data-field=\"\(field.rawValue)\"\(source)>"
            + "\(HTML.highlight(item.text, words: words))</p>"
        // A button's padding sits on a wrapper, so the text box itself is exactly the budget the measure uses.
        guard let extraClass else { return paragraph }
        return "<div class=\"button \(extraClass)\">\(paragraph)</div>"
    }

    private static func points(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value))" : "\(value)"
    }

    // MARK: Notes

    private static func notes(_ screen: PreviewScreen, overflow: [CopyField]) -> String {
        let geometry = ScreenGeometry(action: screen.action, style: screen.style)
        let buttons = buttonCount(screen)
        var items: [String] = []
        for field in overflow {
            guard let item = screen.texts.first(where: { $0.field == field }) else { continue }
            let box = geometry.box(for: field, buttons: buttons)
            let needed = ScreenGeometry.lines(item.text, in: box)
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
        guard !items.isEmpty else { return "" }
        return "<ul class=\"notes\">\n\(items.joined(separator: "\n"))\n</ul>\n"
    }
}
