import PreludeCore
import PreludeHTTP

/// The query of `GET /v1/apps/{app}/policy`, checked: every malformed or unknown parameter is reported at once,
/// each with the pointer `/query/<name>`.
package enum PolicyQuery {
    /// The parameters the resolved-policy endpoint reads.
    package static let parameters = ["platform", "os", "appVersion", "locale", "installId"]
    /// The longest install id accepted.
    package static let maxInstallIdLength = 128

    /// The client context of `request` (query parameters plus `Accept-Language`) with what its explicit locale
    /// means for the live document (looked up in `locales`), or a 400 problem.
    package static func context(_ request: HTTPRequest, locales: ExplicitLocaleMemo) throws(ProblemDetails) -> (
        ClientContext, ResolutionKey.ExplicitLocale?
    ) {
        var context = ClientContext()
        var explicitLocale: ResolutionKey.ExplicitLocale?
        var problems: [FieldProblem] = []
        // A bit per known parameter: no set allocation on the hot path.
        var seen: UInt8 = 0
        for (name, value) in request.query {
            // Built only for a problem: a valid query allocates no pointers.
            var pointer: String { "/query/" + name }
            guard let bit = parameterIndex(name) else {
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
                if let explicit = locales.explicitLocale(value) {
                    context.locale = value
                    explicitLocale = explicit
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
        // Looked for before the values are gathered: most clients send none, and then nothing is allocated.
        if request.headers.contains("Accept-Language") {
            context.acceptLanguage = request.headers.values(for: "Accept-Language").joined(separator: ", ")
        }
        return (context, explicitLocale)
    }

    /// The position of `name` in ``parameters``, or nil: the five names differ in length, so one comparison.
    static func parameterIndex(_ name: String) -> Int? {
        let index: Int
        switch name.utf8.count {
        case 8: index = 0  // platform
        case 2: index = 1  // os
        case 10: index = 2  // appVersion
        case 6: index = 3  // locale
        case 9: index = 4  // installId
        default: return nil
        }
        return name == parameters[index] ? index : nil
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
