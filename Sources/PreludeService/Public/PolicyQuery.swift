import PreludeCore
import PreludeHTTP

/// The query of `GET /v1/apps/{app}/policy`, checked: every malformed or unknown parameter is reported at once,
/// each with the pointer `/query/<name>`.
package enum PolicyQuery {
    /// The parameters the resolved-policy endpoint reads.
    package static let parameters = ["platform", "os", "appVersion", "locale", "installId"]
    /// The longest install id accepted.
    package static let maxInstallIdLength = 128

    /// The client context of `request` (query parameters plus `Accept-Language`), or a 400 problem.
    package static func context(_ request: HTTPRequest) throws(ProblemDetails) -> ClientContext {
        var context = ClientContext()
        var problems: [FieldProblem] = []
        // A bit per known parameter: no set allocation on the hot path.
        var seen: UInt8 = 0
        for (name, value) in request.query {
            // Built only for a problem: a valid query allocates no pointers.
            var pointer: String { "/query/" + name }
            guard let bit = parameters.firstIndex(of: name) else {
                problems.append(
                    FieldProblem(
                        pointer: pointer, code: "parameter.unknown",
                        detail: "unknown parameter; known: \(parameters.joined(separator: ", "))"))
                continue
            }
            guard seen & (1 << bit) == 0 else {
                problems.append(FieldProblem(pointer: pointer, code: "parameter.repeated", detail: "give it once"))
                continue
            }
            seen |= 1 << bit
            // By the bit found above (the order of `parameters`), not by comparing the name again.
            switch bit {
            case 0:  // platform
                // Clients send the lower-case raw value; `lowercased()` (an allocation) only for other spellings.
                if let platform = Platform(rawValue: value) ?? Platform(rawValue: value.lowercased()) {
                    context.platform = platform
                } else {
                    problems.append(
                        FieldProblem(
                            pointer: pointer, code: "value.invalid",
                            detail: "'\(value)' is not a platform; use one of "
                                + Platform.allCases.map(\.rawValue).joined(separator: ", ")))
                }
            case 1, 2:  // os, appVersion
                if let version = SemanticVersion(value) {
                    if bit == 1 { context.osVersion = version } else { context.appVersion = version }
                } else {
                    problems.append(
                        FieldProblem(
                            pointer: pointer, code: "value.invalid",
                            detail: "'\(value)' is not a version such as 17.4 or 2.3.0"))
                }
            case 3:  // locale
                // The leading language[-Script][-REGION] is used; longer tags (variants, extensions) are cut.
                if LocaleTag(parsingPrefixOf: value) != nil {
                    context.locale = value
                } else {
                    problems.append(
                        FieldProblem(
                            pointer: pointer, code: "locale.invalid",
                            detail: "'\(value)' is not a locale tag such as fr-CA or zh-Hant-TW"))
                }
            default:  // installId
                if let problem = installIdProblem(value) {
                    problems.append(FieldProblem(pointer: pointer, code: "value.invalid", detail: problem))
                } else {
                    context.installId = value
                }
            }
        }
        guard problems.isEmpty else { throw PublicProblem.badRequest(problems) }
        let acceptLanguage = request.headers.values(for: "Accept-Language")
        if !acceptLanguage.isEmpty { context.acceptLanguage = acceptLanguage.joined(separator: ", ") }
        return context
    }

    /// Why `value` is not an acceptable install id (1–128 visible ASCII characters), or nil.
    package static func installIdProblem(_ value: String) -> String? {
        let utf8 = value.utf8
        guard !utf8.isEmpty, utf8.count <= maxInstallIdLength, utf8.allSatisfy({ $0 >= 0x21 && $0 <= 0x7E }) else {
            return "an install id is 1–\(maxInstallIdLength) visible ASCII characters (a UUID is typical)"
        }
        return nil
    }
}
