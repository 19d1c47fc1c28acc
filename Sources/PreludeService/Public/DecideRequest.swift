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
        var reader = RequestBodyReader(object)
        reader.reportUnknown(allowed: members) { _ in "unknown member; allowed: \(members.joined(separator: ", "))" }
        var context = ClientContext(acceptLanguage: acceptLanguage)
        readIdentity(&reader, into: &context)
        readTargeting(&reader, into: &context)
        let states = readStates(&reader, context: context)
        try reader.finish { PublicProblem.unprocessable($0) }
        return DecideRequest(context: context, states: states)
    }

    /// `installId`, `platform`, `os`, `appVersion` and `locale`.
    private static func readIdentity(_ reader: inout RequestBodyReader, into context: inout ClientContext) {
        if let text = reader.read("installId", as: .string) {
            if let problem = PolicyQuery.installIdProblem(text) {
                reader.report("installId", "value.invalid", problem)
            } else {
                context.installId = text
            }
        }
        if let text = reader.read("platform", as: .string) {
            if let platform = Platform(rawValue: text.lowercased()) {
                context.platform = platform
            } else {
                reader.report(
                    "platform", "value.invalid",
                    "'\(text)' is not a platform; use one of \(Platform.allCases.map(\.rawValue).joined(separator: ", "))"
                )
            }
        }
        for name in ["os", "appVersion"] {
            guard let text = reader.read(name, as: .string) else { continue }
            if let version = SemanticVersion(text) {
                if name == "os" { context.osVersion = version } else { context.appVersion = version }
            } else {
                reader.report(name, "value.invalid", "'\(text)' is not a version such as 17.4 or 2.3.0")
            }
        }
        if let text = reader.read("locale", as: .string) {
            if LocaleTag(parsingPrefixOf: text) != nil {
                context.locale = text
            } else {
                reader.report("locale", "locale.invalid", "'\(text)' is not a locale tag such as fr-CA or zh-Hant-TW")
            }
        }
    }

    /// `attributes`, `moments`, `region` and `ageRange`: what conditions and `ask` rules read.
    private static func readTargeting(_ reader: inout RequestBodyReader, into context: inout ClientContext) {
        let attributes = decoded(&reader, "attributes", "an object of attributes") { members in
            do throws(AttributeError) { return (try ClientAttributes.decode(members), "") } catch {
                return (nil, error.description)
            }
        }
        if let attributes { context.attributes = attributes }
        let moments = decoded(&reader, "moments", "an object of moments") { members in
            do throws(MomentError) { return (try MomentRecord.decodeAll(members), "") } catch {
                return (nil, error.message)
            }
        }
        if let moments { context.moments = moments }
        if let text = reader.read("region", as: .string) {
            if let region = StorefrontRegion(text) {
                context.region = region
            } else {
                reader.report("region", "value.invalid", regionProblem(text))
            }
        }
        if let text = reader.read("ageRange", as: .string) {
            if let band = AgeRange(text) {
                context.ageRange = band
            } else {
                reader.report("ageRange", "value.invalid", ageRangeProblem(text))
            }
        }
    }

    /// Object member `member` decoded by `decode`: `type.mismatch` ("expected `what`, found …") for another type,
    /// `<member>.invalid` with the reason `decode` gives when it gives no value.
    private static func decoded<Value>(
        _ reader: inout RequestBodyReader, _ member: String, _ what: String,
        _ decode: (JSONObject) -> (value: Value?, reason: String)
    ) -> Value? {
        guard let members = reader.read(member, as: .object, mismatch: mismatch(what, reader[member])) else {
            return nil
        }
        let (value, reason) = decode(members)
        if value == nil { reader.report(member, member + ".invalid", reason) }
        return value
    }

    /// "expected `what`, found …" for a member of another type.
    private static func mismatch(_ what: String, _ value: JSONValue?) -> String {
        "expected \(what), found \(value?.kindName ?? "nothing")"
    }

    /// `features`: 1 to ``maxFeatures`` client states of distinct features, completed by the decide contract.
    private static func readStates(_ reader: inout RequestBodyReader, context: ClientContext) -> [ClientState] {
        guard
            let list = reader.read(
                "features", as: .array, missing: "features is required: the client states to decide on",
                mismatch: mismatch("an array of client states", reader["features"]))
        else { return [] }
        if list.isEmpty || list.count > maxFeatures {
            reader.report("features", "features.count", "give 1–\(maxFeatures) feature states; this has \(list.count)")
        }
        var states: [ClientState] = []
        // Distinct features only, so at most the catalogue's 16: a scan is cheaper than hashing their names.
        var seen: [Feature] = []
        for (index, value) in list.enumerated() {
            let pointer = JSONPointer(tokens: ["features", String(index)])
            let (state, stateProblems) = ClientState.decode(value, at: pointer)
            reader.problems += stateProblems.map { PublicProblem.field($0) }
            guard let state else { continue }
            if seen.contains(state.feature) {
                reader.problems.append(
                    FieldProblem(
                        pointer: pointer.appending("feature").description, code: "feature.duplicate",
                        detail: "each feature may appear once"))
                continue
            }
            seen.append(state.feature)
            // The contract's normalisation (the client's offline decider applies the same, core).
            states.append(DecideContract.completed(state, context: context))
        }
        return states
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
