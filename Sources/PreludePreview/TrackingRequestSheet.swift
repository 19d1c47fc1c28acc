import PreludeCore

/// An approximation of iOS 27.2's expanded, full-page tracking request
/// (`requestTrackingAuthorization(usingExpandedInterface:additionalInformationAction:completionHandler:)`), drawn
/// beside `tracking`'s priming screen when the policy carries the purpose strings the team intends to ship
/// (`features.tracking.purposeStrings`).
///
/// The sheet shows the app's name, `NSUserTrackingMarkdownUsageDescription` rendered by ``MarkdownHTML`` — or, when
/// no locale on the chain has it, `NSUserTrackingUsageDescription` as plain text, the system's documented fallback
/// (https://developer.apple.com/documentation/bundleresources/information-property-list/nsusertrackingmarkdownusagedescription)
/// — the system's two buttons and the optional "Additional Information" action (shown only when the app passes an
/// `additionalInformationAction`, as the Xcode 27.2 header says: "If this is nil, no button will be shown"). Only the purpose string is the
/// app's; everything else is the system's and approximated: Apple publishes no picture or wording of the full page,
/// so the title and buttons are those of the tracking alert since iOS 14.5 ("Ask App Not to Track", "Allow", as
/// Apple's support article "If an app asks to track your activity", support.apple.com/HT212025, names them), drawn
/// in English whatever the locale (iOS draws them in the device's language).
struct TrackingRequestSheet: Sendable, Hashable {
    /// The app's name, as the system names it.
    let appName: String
    /// The purpose string, rendered: Markdown as HTML, or the plain string escaped.
    let bodyHTML: String
    /// The key the text comes from.
    let key: String
    /// The locale of the policy's purpose strings the text comes from.
    let source: LocaleTag

    /// The sheet for `locale`, or nil when the policy carries no tracking purpose string on `locale`'s chain.
    /// Each key is looked up along the locale's fallback chain over the locales the policy gives purpose strings
    /// for, as iOS falls back from a localization's `InfoPlist.strings` to the development language.
    init?(document: PolicyDocument, locale: LocaleTag) {
        guard let strings = document.features[.tracking]?.purposeStrings, !strings.isEmpty else { return nil }
        let chain = LocaleResolver.fallbackChain(
            for: locale, available: Set(strings.keys), defaultLocale: document.app.defaultLocale)
        func lookUp(_ key: String) -> (String, LocaleTag)? {
            for tag in chain {
                if let text = strings[tag]?[key], !text.isEmpty { return (text, tag) }
            }
            return nil
        }
        if let (markdown, tag) = lookUp(PurposeStringKey.trackingMarkdown) {
            bodyHTML = MarkdownHTML.render(markdown)
            key = PurposeStringKey.trackingMarkdown
            source = tag
        } else if let (plain, tag) = lookUp("NSUserTrackingUsageDescription") {
            bodyHTML = "<p>\(HTMLEscaping.escape(plain))</p>"
            key = "NSUserTrackingUsageDescription"
            source = tag
        } else {
            return nil
        }
        appName = document.app.name
    }

    /// Appends the sheet, light and dark, with its label, to `html`.
    func draw(direction: TextDirection, lang: String, into html: inout String) {
        html += "<div class=\"att-sheet\" data-key=\""
        html += key
        html += "\" data-source=\""
        html += HTMLEscaping.escape(source.description)
        html += "\"><p class=\"side-label\">then, on iOS 27.2 with the expanded request: the system’s full page "
        html += "<span class=\"badge approx\">approximation</span></p>"
        var page = "<div class=\"att-page\"><div class=\"att-glyph\" aria-hidden=\"true\"></div>"
        page += "<p class=\"att-title\">Allow “"
        page += HTMLEscaping.escape(appName)
        page += "” to track your activity across other companies’ apps and websites?</p>"
        page += "<div class=\"att-body\" title=\""
        page += HTMLEscaping.escape("purposeStrings/\(source.description)/\(key)")
        page += "\">"
        page += bodyHTML
        page += "</div><p class=\"att-more\">Additional Information <small>(only when the app passes "
        page += "additionalInformationAction)</small></p>"
        page += "<div class=\"att-buttons\"><p class=\"att-button\">Ask App Not to Track</p>"
        page += "<p class=\"att-button\">Allow</p></div></div>"
        for theme in ["light", "dark"] {
            html += "<div class=\"device att "
            html += theme
            html += "\" dir=\""
            html += direction.rawValue
            html += "\" lang=\""
            html += lang
            html += "\" data-theme=\""
            html += theme
            html += "\">"
            html += page
            html += "</div>"
        }
        html += "</div>"
    }
}
