import PreludeCore
import PreludeHTTP

/// The query of `GET /v1/apps/{app}/policy`, checked: every malformed or unknown parameter is reported at once,
/// each with the pointer `/query/<name>`.
///
/// Attributes and moments (docs/api.md, "Attributes in the query"): `attr.<name>=<value>` per attribute, the value
/// read as a JSON number, `true` or `false` when it is one, as a JSON string when it starts with `"` (so
/// `attr.code="42"` is the string 42), else as the text itself; `moment.<name>=<count>` per moment.
package enum PolicyQuery {
    /// The parameters the resolved-policy endpoint reads.
    package static let parameters = ["platform", "os", "appVersion", "locale", "installId", "region", "ageRange"]
    /// The longest install id accepted.
    package static let maxInstallIdLength = 128

    /// A checked query: the client context (query parameters plus `Accept-Language`) and what its explicit locale
    /// means for the live document.
    package struct Reading: Sendable {
        /// The client context.
        package var context: ClientContext
        /// What the `locale` parameter means for the document (nil without one).
        package var explicitLocale: ResolutionKey.ExplicitLocale?
    }

    /// A query read once: plain (read in place from its bytes: ``plainContext(_:locales:)``), decoded (through the
    /// decoded pairs: ``decodedContext(_:locales:)``), or the 400 naming every problem.
    package enum Parsed: Sendable {
        /// Read from the raw bytes; the same for every request with these bytes (``PlainPolicyQueries`` keeps it).
        case plain(Reading)
        /// Read through the decoded pairs.
        case decoded(Reading)
        /// The 400 problem, every malformed or unknown parameter with its pointer.
        case problems(ProblemDetails)
    }

    /// Reads `request`'s query once, explicit locales looked up in `locales`.
    package static func parse(_ request: HTTPRequest, locales: ExplicitLocaleMemo) -> Parsed {
        if var plain = plainContext(request.rawQueryView, locales: locales) {
            readAcceptLanguage(request, into: &plain.0)
            return .plain(Reading(context: plain.0, explicitLocale: plain.1))
        }
        do {
            let (context, explicitLocale) = try decodedContext(request, locales: locales)
            return .decoded(Reading(context: context, explicitLocale: explicitLocale))
        } catch {
            return .problems(error)
        }
    }

    /// The context of `request` and what its explicit locale means (``parse(_:locales:)``), or the 400 problem.
    package static func context(_ request: HTTPRequest, locales: ExplicitLocaleMemo) throws(ProblemDetails) -> (
        ClientContext, ResolutionKey.ExplicitLocale?
    ) {
        switch parse(request, locales: locales) {
        case .plain(let reading), .decoded(let reading): return (reading.context, reading.explicitLocale)
        case .problems(let problem): throw problem
        }
    }

    /// ``context(_:locales:)`` the long way, for every query: through the decoded pairs, reporting every problem.
    /// The query a plain query (``plainContext(_:locales:)``) declines takes this path.
    package static func decodedContext(_ request: HTTPRequest, locales: ExplicitLocaleMemo) throws(ProblemDetails) -> (
        ClientContext, ResolutionKey.ExplicitLocale?
    ) {
        var context = ClientContext()
        var explicitLocale: ResolutionKey.ExplicitLocale?
        var problems: [FieldProblem] = []
        // A bit per known parameter: no set allocation on the hot path.
        var seen: UInt8 = 0
        var attributes = JSONObject()
        var moments = JSONObject()
        for (name, value) in request.query {
            // Built only for a problem: a valid query allocates no pointers.
            var pointer: String { "/query/" + name }
            if name.hasPrefix(attributePrefix) || name.hasPrefix(momentPrefix) {
                if let problem = readAttributeOrMoment(name, value, attributes: &attributes, moments: &moments) {
                    problems.append(problem)
                }
                continue
            }
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
            if bit == 3 {  // locale: the leading language[-Script][-REGION] is used; longer tags are cut
                if let explicit = locales.explicitLocale(value) {
                    context.locale = value
                    explicitLocale = explicit
                } else {
                    problems.append(
                        FieldProblem(
                            pointer: pointer, code: "locale.invalid",
                            detail: "'\(value)' is not a locale tag such as fr-CA or zh-Hant-TW"))
                }
            } else if let problem = readParameter(bit, value, into: &context) {
                problems.append(FieldProblem(pointer: pointer, code: "value.invalid", detail: problem))
            }
        }
        problems += decodeAttributesAndMoments(attributes, moments, into: &context)
        guard problems.isEmpty else { throw PublicProblem.badRequest(problems) }
        readAcceptLanguage(request, into: &context)
        return (context, explicitLocale)
    }

    /// Reads the known parameter at `bit` (the order of ``parameters``; not `locale`) into `context`, or says why
    /// `value` is not one (a `value.invalid` problem).
    private static func readParameter(_ bit: Int, _ value: String, into context: inout ClientContext) -> String? {
        // By the bit found by the caller, not by comparing the name again.
        switch bit {
        case 0:  // platform
            // Clients send the lower-case raw value; `lowercased()` (an allocation) only for other spellings.
            guard let platform = Platform(rawValue: value) ?? Platform(rawValue: value.lowercased()) else {
                return "'\(value)' is not a platform; use one of "
                    + Platform.allCases.map(\.rawValue).joined(separator: ", ")
            }
            context.platform = platform
        case 1, 2:  // os, appVersion
            guard let version = SemanticVersion(value) else {
                return "'\(value)' is not a version such as 17.4 or 2.3.0"
            }
            if bit == 1 { context.osVersion = version } else { context.appVersion = version }
        case 4:  // installId
            if let problem = installIdProblem(value) { return problem }
            context.installId = value
        case 5:  // region
            guard let region = StorefrontRegion(value) else { return DecideRequest.regionProblem(value) }
            context.region = region
        default:  // ageRange
            guard let band = AgeRange(value) else { return DecideRequest.ageRangeProblem(value) }
            context.ageRange = band
        }
        return nil
    }

    /// Collects `attr.<name>` or `moment.<name>` (decoded together after the loop), or the problem with it.
    private static func readAttributeOrMoment(
        _ name: String, _ value: String, attributes: inout JSONObject, moments: inout JSONObject
    ) -> FieldProblem? {
        let isAttribute = name.hasPrefix(attributePrefix)
        let key = String(name.dropFirst(isAttribute ? attributePrefix.count : momentPrefix.count))
        if (isAttribute ? attributes[key] : moments[key]) != nil {
            return FieldProblem(pointer: "/query/" + name, code: "parameter.repeated", detail: "give it once")
        }
        guard isAttribute else {
            moments[key] = ["count": Int(value).map(JSONValue.integer) ?? .string(value)]
            return nil
        }
        guard let parsed = attributeValue(value) else {
            return FieldProblem(
                pointer: "/query/" + name, code: "attributes.invalid",
                detail: "a value starting with '\"' must be a whole JSON string")
        }
        attributes[key] = parsed
        return nil
    }

    /// Decodes the collected attributes and moments into `context` (decide's rules), or their problems.
    private static func decodeAttributesAndMoments(
        _ attributes: JSONObject, _ moments: JSONObject, into context: inout ClientContext
    ) -> [FieldProblem] {
        var problems: [FieldProblem] = []
        if !attributes.isEmpty {
            do {
                context.attributes = try ClientAttributes.decode(attributes)
            } catch {
                let name: String =
                    switch error {
                    case .invalidName(let name), .invalidValue(let name): attributePrefix + name
                    case .tooMany: "attr"
                    }
                problems.append(
                    FieldProblem(pointer: "/query/" + name, code: "attributes.invalid", detail: error.description))
            }
        }
        if !moments.isEmpty {
            do {
                context.moments = try MomentRecord.decodeAll(moments)
            } catch {
                problems.append(FieldProblem(pointer: "/query/moment", code: "moments.invalid", detail: error.message))
            }
        }
        return problems
    }

    /// The prefix of an attribute parameter.
    static let attributePrefix = "attr."
    /// The prefix of a moment parameter.
    static let momentPrefix = "moment."

    /// An attribute parameter's value: a JSON number, `true`, `false` or a quoted JSON string as such, any other
    /// text as a string; nil for a value that starts with `"` but is not one JSON string.
    static func attributeValue(_ text: String) -> JSONValue? {
        switch text {
        case "true": return .bool(true)
        case "false": return .bool(false)
        default: break
        }
        guard let first = text.utf8.first else { return .string(text) }
        if first == UInt8(ascii: "\"") {
            guard let parsed = try? JSONValue(parsing: Array(text.utf8)), case .string = parsed else { return nil }
            return parsed
        }
        if first == UInt8(ascii: "-") || (48...57).contains(first),
            let parsed = try? JSONValue(parsing: Array(text.utf8))
        {
            switch parsed {
            case .integer, .double: return parsed
            default: break
            }
        }
        return .string(text)
    }

    /// The context of a query whose pieces are all plain ASCII `name=value` (no escape, no `+`) with known names,
    /// each once, and valid values — what clients send — read from the raw bytes without building the decoded pairs;
    /// nil for anything else, which the decoded path then reports parameter by parameter. For such a query both
    /// paths read the same names and values, so they give the same context.
    static func plainContext(_ query: RawQuery, locales: ExplicitLocaleMemo) -> (
        ClientContext, ResolutionKey.ExplicitLocale?
    )? {
        var context = ClientContext()
        var explicitLocale: ResolutionKey.ExplicitLocale?
        var seen: UInt8 = 0
        var attributes: JSONObject?
        var moments: JSONObject?
        let plain = query.forEachPiece { piece in
            guard let value = piece.value, !piece.nameNeedsDecoding, !piece.valueNeedsDecoding else { return false }
            guard let bit = parameterIndex(piece.name) else {
                // attr.<name> and moment.<name>: read as the decoded path reads them; anything odd declines.
                let name = String(decoding: piece.name, as: UTF8.self)
                let text = String(decoding: value, as: UTF8.self)
                if name.hasPrefix(attributePrefix) {
                    let key = String(name.dropFirst(attributePrefix.count))
                    guard attributes?[key] == nil, let parsed = attributeValue(text) else { return false }
                    attributes = attributes ?? JSONObject()
                    attributes?[key] = parsed
                    return true
                }
                if name.hasPrefix(momentPrefix) {
                    let key = String(name.dropFirst(momentPrefix.count))
                    guard moments?[key] == nil, let count = Int(text) else { return false }
                    moments = moments ?? JSONObject()
                    moments?[key] = ["count": .integer(count)]
                    return true
                }
                return false
            }
            guard seen & (1 << bit) == 0 else { return false }
            seen |= 1 << bit
            switch bit {
            case 0:  // platform: the lower-case raw value (other spellings take the decoded path)
                guard let platform = Platform(rawValue: String(decoding: value, as: UTF8.self)) else {
                    return false
                }
                context.platform = platform
            case 1, 2:  // os, appVersion
                guard let version = SemanticVersion.parse(value) else { return false }
                if bit == 1 { context.osVersion = version } else { context.appVersion = version }
            case 3:  // locale
                let text = String(decoding: value, as: UTF8.self)
                guard let explicit = locales.explicitLocale(text) else { return false }
                context.locale = text
                explicitLocale = explicit
            case 4:  // installId
                guard isPlainInstallId(value) else { return false }
                context.installId = String(decoding: value, as: UTF8.self)
            case 5:  // region
                guard let region = StorefrontRegion(String(decoding: value, as: UTF8.self)) else { return false }
                context.region = region
            default:  // ageRange ("18+" arrives as "18%2B" and takes the decoded path)
                guard let band = AgeRange(String(decoding: value, as: UTF8.self)) else { return false }
                context.ageRange = band
            }
            return true
        }
        guard plain else { return nil }
        if let attributes {
            guard let decoded = try? ClientAttributes.decode(attributes) else { return nil }
            context.attributes = decoded
        }
        if let moments {
            guard let decoded = try? MomentRecord.decodeAll(moments) else { return nil }
            context.moments = decoded
        }
        return (context, explicitLocale)
    }

    /// Sets the context's `acceptLanguage` from the request's `Accept-Language` fields.
    private static func readAcceptLanguage(_ request: HTTPRequest, into context: inout ClientContext) {
        if let acceptLanguage = acceptLanguage(request.headers) { context.acceptLanguage = acceptLanguage }
    }

    /// The request's `Accept-Language` fields joined (RFC 9110 §5.3), or nil when it sent none (an empty field is
    /// the empty string). Most clients send none: the name's signature rules it out without reading a field.
    static func acceptLanguage(_ headers: HTTPHeaders) -> String? {
        let values = headers.values(for: "Accept-Language", signature: acceptLanguageSignature)
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }

    private static let acceptLanguageSignature = HTTPHeaders.nameSignature("Accept-Language")

    /// Whether raw bytes are an install id as they stand: ``installIdProblem(_:)``'s rule (1–128 visible ASCII
    /// characters), and no `%` or `+`, whose value is the decoded text (the decoded path reads those).
    static func isPlainInstallId(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
        (1...maxInstallIdLength).contains(value.count)
            && value.allSatisfy { $0 >= 0x21 && $0 <= 0x7E && $0 != UInt8(ascii: "%") && $0 != UInt8(ascii: "+") }
    }

    /// The position of a name's raw bytes in ``parameters``, or nil: the length picks one or two candidates.
    static func parameterIndex(_ name: UnsafeBufferPointer<UInt8>) -> Int? {
        let candidates: (Int, Int?)
        switch name.count {
        case 8: candidates = (0, 6)
        case 2: candidates = (1, nil)
        case 10: candidates = (2, nil)
        case 6: candidates = (3, 5)
        case 9: candidates = (4, nil)
        default: return nil
        }
        if RawQuery.bytes(name, equal: parameterLiterals[candidates.0]) { return candidates.0 }
        if let other = candidates.1, RawQuery.bytes(name, equal: parameterLiterals[other]) { return other }
        return nil
    }

    /// ``parameters`` as literals, compared with raw bytes.
    private static let parameterLiterals: [StaticString] = [
        "platform", "os", "appVersion", "locale", "installId", "region", "ageRange",
    ]

    /// The position of `name` in ``parameters``, or nil, compared as UTF-8 (no other text equals one of these names:
    /// none has a letter with a canonical singleton such as the Kelvin sign for K).
    static func parameterIndex(_ name: String) -> Int? {
        var name = name
        return name.withUTF8 { parameterIndex($0) }
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
