/// The lint rules of docs/lint.md, with their ids exactly as that file names them.
public enum LintRule: String, CaseIterable, Hashable, Sendable, Codable {
    case pa1 = "PA-1"
    case pa2 = "PA-2"
    case pa3 = "PA-3"
    case pa4 = "PA-4"
    case pa5 = "PA-5"
    case pa6 = "PA-6"
    case pa7 = "PA-7"
    case pa8 = "PA-8"
    case pa9 = "PA-9"
    case pa10 = "PA-10"
    case ps1 = "PS-1"
    case ps2 = "PS-2"
    case ps3 = "PS-3"
    case ps4 = "PS-4"
    case ps5 = "PS-5"
    case ps6 = "PS-6"
    case ps7 = "PS-7"
    case ps8 = "PS-8"
    case ps9 = "PS-9"
    case ps10 = "PS-10"
    case ps11 = "PS-11"
    case dn1 = "DN-1"
    case dn2 = "DN-2"
    case tr1 = "TR-1"
    case tr2 = "TR-2"
    case os1 = "OS-1"
    case ln1 = "LN-1"
    case ls1 = "LS-1"
    case ct1 = "CT-1"
    case ac1 = "AC-1"
    case ac2 = "AC-2"
    case cn1 = "CN-1"
    case cn2 = "CN-2"

    /// The id as the reference names it ("PA-2").
    public var id: String { rawValue }

    /// The severity the reference gives; some rules are raised to error for tracking (TR-1).
    public var severity: LintSeverity {
        switch self {
        case .pa1, .pa2, .pa3, .pa4, .pa5, .ps1, .ps4, .ps5, .ps6, .ps8, .dn2, .tr1, .tr2, .ac1, .ps11: .error
        case .pa6, .pa7, .pa8, .pa9, .ps2, .ps3, .ps9, .ps10, .dn1, .os1, .ln1, .ls1, .ct1, .ac2, .cn1, .cn2: .warning
        case .pa10, .ps7: .info
        }
    }

    /// One-line statement of the rule.
    public var summary: String {
        switch self {
        case .pa1: "The priming screen has exactly one action, and it opens the system alert."
        case .pa2: "The priming action is labelled like \"Continue\" or \"Next\", never \"Allow\" or similar."
        case .pa3: "The priming screen offers no way to leave without the system alert (no Not Now, Cancel, Skip)."
        case .pa4: "The priming screen must not look like a request or mirror the system alert."
        case .pa5: "No image of the system alert and no cue pointing at its Allow button."
        case .pa6: "No incentives for granting access."
        case .pa7: "No withholding of functionality or gating of the app on consent."
        case .pa8: "Ask in context, when the feature is used; at launch only when the app cannot work without it."
        case .pa9: "Request only what the feature needs; prefer the system pickers, which need no permission."
        case .pa10: "For one-off location use, consider the Location Button."
        case .ps1: "A brief, complete sentence ending with the locale's full stop."
        case .ps2: "Sentence case."
        case .ps3: "Avoid the passive voice."
        case .ps4: "Not a bare imperative without a reason."
        case .ps5: "Specific, not vague."
        case .ps6: "Does not just restate the resource."
        case .ps7: "Names the feature or outcome and gives an example of use."
        case .ps8: "One string per resource, localised for every supported language."
        case .ps9: "No marketing text or feature lists."
        case .ps10: "Keep it short."
        case .ps11: "The Markdown tracking string uses only bold, italic, bullet lists and paragraphs."
        case .dn1: "A denied screen links to Settings only on user action and offers an alternative."
        case .dn2: "Restricted users are never re-prompted and get no Settings button."
        case .tr1: "The tracking pre-prompt is informational only; PA-1 to PA-7 apply as errors."
        case .tr2: "The tracking prompt is one-shot: no re-ask cadence."
        case .os1: "A permissionless path is used only where the OS has it (AccessorySetupKit before iOS 18: error)."
        case .ln1: "The local network's status is not knowable and it has no request API."
        case .ls1: "Location Services off device-wide gets its own words, never the app's Settings page."
        case .ct1: "Limited contacts never re-prompt: extend the set with the contact access picker or button."
        case .ac1: "An app-level consent asks explicitly: one action that grants, and a visible way to decline."
        case .ac2: "An app-level consent's action says what the person agrees to, not a neutral Continue."
        case .cn1: "Every segment is used by a rule, an ask rule or another segment."
        case .cn2: "A condition reads only attributes the policy declares (or the client's own prelude.* facts)."
        }
    }

    /// The source keys of the reference ([H1], [A7], ...).
    public var source: String {
        switch self {
        case .pa1, .pa5, .ps2, .ps4: "H1"
        case .pa2: "H1 (ATT section too)"
        case .pa3: "H1, H1b"
        case .pa4: "H1, H4"
        case .pa6: "H1, H4 5.1.2(i)"
        case .pa7: "H1, H3 5.1.1(iv)"
        case .pa8: "H1"
        case .pa9: "H3 5.1.1(iii), A1, A2"
        case .pa10: "H1, A5"
        case .ps1: "H1, H2"
        case .ps3: "H1, H5"
        case .ps5: "H1, H2"
        case .ps6, .ps7, .ps8, .ps9: "H2"
        case .ps10: "H1"
        case .ps11: "NSUserTrackingMarkdownUsageDescription (Apple, iOS 27.2)"
        case .dn1: "H3 5.1.1(iv), Q12"
        case .dn2: "A1-A7"
        case .tr1: "H1, H4"
        case .tr2: "A7"
        case .os1, .ln1, .ls1, .ct1: "docs/catalogue.md"
        case .ac1, .ac2: "App Review 5.1.2(i), docs/catalogue.md"
        case .cn1, .cn2: "docs/policy.md"
        }
    }
}
