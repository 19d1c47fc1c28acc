import PreludeCore
import PreludeHTTP

/// The body of `POST /v1/apps/{app}/decide`, validated as a whole.
///
/// ```json
/// {"installId": "8C1F…", "platform": "ios", "os": "17.4", "appVersion": "2.3.0", "locale": "fr-CA",
///  "features": [{"feature": "camera", "status": "notDetermined", "available": true,
///                "history": {"prime": {"shownCount": 1, "lastShown": 1795350600, "lastOutcome": "dismissed"}}}]}
/// ```
/// `attributes` (`{"sessionCount": 3, "plan": "pro"}`: strings, numbers, booleans; at most 64) and `moments`
/// (`{"orderPlaced": {"count": 2, "last": "2026-11-28T10:00:00Z"}}`) feed conditions and `ask` rules; they are
/// never stored or logged. Every member but `features` is optional, as for the resolved policy's query. Each entry of `features` is an
/// engine client state (`ClientState.decode`, docs/decisions.md), completed by the core's
/// ``PreludeCore/DecideContract/completed(_:context:)``: its `osVersion` defaults to the top-level `os`.
package struct DecideRequest: Sendable {
    /// The client context (targeting, locale, bucketing).
    package var context: ClientContext
    /// The states to decide on, in request order.
    package var states: [ClientState]

    /// The most features in one request (the catalogue's size).
    package static let maxFeatures = Feature.allCases.count

    private static let members = [
        "installId", "platform", "os", "appVersion", "locale", "region", "ageRange", "attributes", "moments",
        "features",
    ]

    /// Parses `body`; `acceptLanguage` is used when the body gives no `locale`.
    ///
    /// Throws 400 when the body is not a JSON object, 422 listing every problem otherwise.
    package static func decode(_ body: [UInt8], acceptLanguage: String?) throws(ProblemDetails) -> DecideRequest {
        try decode(
            object: try PublicProblem.jsonObject(body, expected: "expected an object with a features array"),
            acceptLanguage: acceptLanguage)
    }

    /// Reads the body's object (OFREP builds one from its context: ``OFREPRequest``); throws 422 listing every
    /// problem.
    package static func decode(object: JSONObject, acceptLanguage: String?) throws(ProblemDetails) -> DecideRequest {
        var problems: [FieldProblem] = []
        func report(_ pointer: String, _ code: String, _ detail: String) {
            problems.append(FieldProblem(pointer: pointer, code: code, detail: detail))
        }
        for (key, _) in object where !members.contains(key) {
            report(
                "/" + JSONPointer.escape(key), "member.unknown",
                "unknown member; allowed: \(members.joined(separator: ", "))")
        }
        var context = ClientContext(acceptLanguage: acceptLanguage)
        func string(_ name: String) -> String? {
            guard let value = object[name] else { return nil }
            guard let text = value.stringValue else {
                report("/" + name, "type.mismatch", "expected a string, found \(value.kindName)")
                return nil
            }
            return text
        }
        if let text = string("installId") {
            if let problem = PolicyQuery.installIdProblem(text) {
                report("/installId", "value.invalid", problem)
            } else {
                context.installId = text
            }
        }
        if let text = string("platform") {
            if let platform = Platform(rawValue: text.lowercased()) {
                context.platform = platform
            } else {
                report(
                    "/platform", "value.invalid",
                    "'\(text)' is not a platform; use one of \(Platform.allCases.map(\.rawValue).joined(separator: ", "))"
                )
            }
        }
        for name in ["os", "appVersion"] {
            guard let text = string(name) else { continue }
            if let version = SemanticVersion(text) {
                if name == "os" { context.osVersion = version } else { context.appVersion = version }
            } else {
                report("/" + name, "value.invalid", "'\(text)' is not a version such as 17.4 or 2.3.0")
            }
        }
        if let text = string("locale") {
            if LocaleTag(parsingPrefixOf: text) != nil {
                context.locale = text
            } else {
                report("/locale", "locale.invalid", "'\(text)' is not a locale tag such as fr-CA or zh-Hant-TW")
            }
        }
        if let value = object["attributes"] {
            if case .object(let members) = value {
                do {
                    context.attributes = try ClientAttributes.decode(members)
                } catch {
                    report("/attributes", "attributes.invalid", error.description)
                }
            } else {
                report("/attributes", "type.mismatch", "expected an object of attributes, found \(value.kindName)")
            }
        }
        if let value = object["moments"] {
            if case .object(let members) = value {
                do {
                    context.moments = try MomentRecord.decodeAll(members)
                } catch {
                    report("/moments", "moments.invalid", error.message)
                }
            } else {
                report("/moments", "type.mismatch", "expected an object of moments, found \(value.kindName)")
            }
        }

        if let text = string("region") {
            if let region = StorefrontRegion(text) {
                context.region = region
            } else {
                report("/region", "value.invalid", regionProblem(text))
            }
        }
        if let text = string("ageRange") {
            if let band = AgeRange(text) {
                context.ageRange = band
            } else {
                report("/ageRange", "value.invalid", ageRangeProblem(text))
            }
        }

        var states: [ClientState] = []
        switch object["features"] {
        case nil:
            report("/features", "member.missing", "features is required: the client states to decide on")
        case .array(let list)?:
            if list.isEmpty || list.count > maxFeatures {
                report("/features", "features.count", "give 1–\(maxFeatures) feature states; this has \(list.count)")
            }
            // Distinct features only, so at most the catalogue's 16: a scan is cheaper than hashing their names.
            var seen: [Feature] = []
            for (index, value) in list.enumerated() {
                let pointer = JSONPointer(tokens: ["features", String(index)])
                let (state, stateProblems) = ClientState.decode(value, at: pointer)
                problems += stateProblems.map { PublicProblem.field($0) }
                guard let state else { continue }
                if seen.contains(state.feature) {
                    report(
                        pointer.appending("feature").description, "feature.duplicate", "each feature may appear once")
                    continue
                }
                seen.append(state.feature)
                // The contract's normalisation (the client's offline decider applies the same, core).
                states.append(DecideContract.completed(state, context: context))
            }
        case let other?:
            report("/features", "type.mismatch", "expected an array of client states, found \(other.kindName)")
        }
        guard problems.isEmpty else { throw PublicProblem.unprocessable(problems) }
        return DecideRequest(context: context, states: states)
    }
}

extension DecideRequest {
    /// Why `text` is not a storefront region (decide, OFREP and the policy query say the same).
    package static func regionProblem(_ text: String) -> String {
        "'\(text)' is not a storefront country; send StoreKit's Storefront.countryCode (ISO 3166-1 alpha-3, such as FRA)"
    }

    /// Why `text` is not a declared age band.
    package static func ageRangeProblem(_ text: String) -> String {
        "'\(text)' is not an age band; send \"13-15\" (both bounds, inclusive) or \"18+\" (no upper bound)"
    }
}
