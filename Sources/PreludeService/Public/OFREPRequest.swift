import PreludeCore
import PreludeHTTP

/// An OFREP evaluation request (docs/openfeature.md) read as the decide request it stands for.
///
/// OFREP sends `{"context": {...}}`. The context uses the decide endpoint's names: `targetingKey` is the install id,
/// `platform`, `os`, `appVersion`, `locale`, `region` and `ageRange` are decide's members of the same names. For one flag, the feature's
/// state is read from the context's `status`, `available`, `osVersion`, `history`, `trackingPromptShown`,
/// `origin`, `insufficientlyInUse` and `preventsAutomaticLimitedAccessAlert`; for the bulk call, from `features` (`{"camera": {"status": "denied"}, ...}`). A feature without a
/// state (no `status`) is evaluated as `notDetermined`. `moments` is decide's member of that name. Every other
/// context member is an attribute for conditions (the specification lets an OpenFeature client send any attribute,
/// `additionalProperties: true`): a nested object's members become dotted names (`{"user": {"plan": "pro"}}` is
/// `user.plan`), `null` is no attribute, and an array is refused (INVALID_CONTEXT), as are the limits of decide's
/// `attributes`.
///
/// The request is translated into a decide body and read by ``DecideRequest/decode(object:acceptLanguage:)``, so every
/// rule of decide (validation, the state's `osVersion` defaulting to `os`, Apple's status names) applies unchanged;
/// decide's problems come back as OFREP errors naming the context member.
package enum OFREPRequest {
    /// The context members that are decide's top-level members, with decide's name for each.
    private static let contextMembers = [
        ("targetingKey", "installId"), ("platform", "platform"), ("os", "os"), ("appVersion", "appVersion"),
        ("locale", "locale"), ("region", "region"), ("ageRange", "ageRange"),
    ]
    /// The context members that make up one feature's state (single-flag evaluation).
    private static let stateMembers = [
        "status", "available", "osVersion", "history", "trackingPromptShown", "origin", "insufficientlyInUse",
        "preventsAutomaticLimitedAccessAlert",
    ]

    /// The decide request for evaluating `feature` (the flag key, already known to be configured).
    package static func single(_ body: [UInt8], feature: Feature, acceptLanguage: String?) throws(OFREPFailure)
        -> DecideRequest
    {
        let context = try contextObject(body, key: feature.rawValue)
        var state = JSONObject()
        state["feature"] = .string(feature.rawValue)
        for name in stateMembers {
            if let value = context[name] { state[name] = value }
        }
        if state["status"] == nil { state["status"] = .string(AuthorizationStatus.notDetermined.rawValue) }
        var decide = try topLevel(context, key: feature.rawValue)
        decide["features"] = .array([.object(state)])
        return try decode(decide, acceptLanguage: acceptLanguage, key: feature.rawValue) { member in
            member == "feature" ? "key" : member
        }
    }

    /// The decide request for evaluating every feature in `configured` (the app's features, catalogue order).
    package static func bulk(_ body: [UInt8], configured: [Feature], acceptLanguage: String?) throws(OFREPFailure)
        -> DecideRequest
    {
        let context = try contextObject(body, key: nil)
        var given = JSONObject()
        switch context["features"] {
        case nil: break
        case .object(let object)?: given = object
        case let other?:
            throw .invalidContext(
                "context.features: expected an object of feature states by feature, found \(other.kindName)")
        }
        for (name, value) in given {
            guard let feature = Feature(rawValue: name), configured.contains(feature) else {
                throw .invalidContext(
                    "context.features.\(name): not a feature of this app; its features are "
                        + configured.map(\.rawValue).joined(separator: ", "))
            }
            guard case .object = value else {
                throw .invalidContext(
                    "context.features.\(name): expected a feature state object, found \(value.kindName)")
            }
        }
        var states: [JSONValue] = []
        for feature in configured {
            var state = given[feature.rawValue]?.objectValue ?? JSONObject()
            state["feature"] = .string(feature.rawValue)
            if state["status"] == nil { state["status"] = .string(AuthorizationStatus.notDetermined.rawValue) }
            states.append(.object(state))
        }
        var decide = try topLevel(context, key: nil)
        decide["features"] = .array(states)
        return try decode(decide, acceptLanguage: acceptLanguage, key: nil) { member in member }
    }

    /// The body's `context` object: PARSE_ERROR when the body is not `{"context": {...}}`, TARGETING_KEY_MISSING
    /// when the context has no `targetingKey` (the specification's context requires it).
    private static func contextObject(_ body: [UInt8], key: String?) throws(OFREPFailure) -> JSONObject {
        let json: JSONValue
        do {
            json = try JSONValue(parsing: body)
        } catch {
            throw .parse("the body is not JSON: \(error.description)", key: key)
        }
        guard case .object(let object) = json else {
            throw .parse("expected {\"context\": {...}}, found \(json.kindName)", key: key)
        }
        guard let value = object["context"] else { throw .parse("the body has no context", key: key) }
        guard case .object(let context) = value else {
            throw .parse("context: expected an object, found \(value.kindName)", key: key)
        }
        guard let targetingKey = context["targetingKey"] else {
            throw OFREPFailure(
                status: .badRequest, errorCode: "TARGETING_KEY_MISSING",
                details: "context.targetingKey is required: the install id", key: key)
        }
        guard case .string = targetingKey else {
            throw .invalidContext("context.targetingKey: expected a string, found \(targetingKey.kindName)", key: key)
        }
        return context
    }

    /// Decide's top-level members from the context.
    private static func topLevel(_ context: JSONObject, key: String?) throws(OFREPFailure) -> JSONObject {
        var decide = JSONObject()
        for (contextName, decideName) in contextMembers {
            if let value = context[contextName] { decide[decideName] = value }
        }
        if let moments = context["moments"] { decide["moments"] = moments }
        var attributes = JSONObject()
        for (name, value) in context where !reservedMembers.contains(name) {
            try flatten(value, name: name, into: &attributes, depth: 0, key: key)
        }
        if !attributes.isEmpty { decide["attributes"] = .object(attributes) }
        return decide
    }

    /// The context members that are not attributes.
    private static let reservedMembers: Set<String> = Set(
        contextMembers.map(\.0) + stateMembers + ["features", "moments"])

    /// Adds `value` as the attribute `name`, an object's members as `name.member`.
    private static func flatten(
        _ value: JSONValue, name: String, into attributes: inout JSONObject, depth: Int, key: String?
    ) throws(OFREPFailure) {
        switch value {
        case .null: return
        case .array:
            throw .invalidContext(
                "context.\(name): an attribute is a string, number or boolean (an object's members become dotted "
                    + "names); found an array",
                key: key)
        case .object(let members):
            guard depth < 4 else {
                throw .invalidContext("context.\(name): attributes nest at most 4 objects deep", key: key)
            }
            for (member, inner) in members {
                try flatten(inner, name: name + "." + member, into: &attributes, depth: depth + 1, key: key)
            }
        default:
            attributes[name] = value
        }
    }

    /// Parses the decide body; decide's problems become one INVALID_CONTEXT naming the context members.
    /// `stateMember` maps a state member's name to its name in the context (single flag: `feature` is the key).
    private static func decode(
        _ decide: JSONObject, acceptLanguage: String?, key: String?, stateMember: (String) -> String
    ) throws(OFREPFailure) -> DecideRequest {
        let features = decide["features"]?.arrayValue ?? []
        do {
            // Decide's values read from the object built here: nothing serialized and parsed again.
            return try DecideRequest.decode(object: decide, acceptLanguage: acceptLanguage)
        } catch {
            let details = error.errors.map { problem in
                "context.\(contextPath(problem.pointer, features: features, key: key, stateMember: stateMember)): "
                    + problem.detail
            }
            throw .invalidContext(
                details.isEmpty ? (error.detail ?? "invalid context") : details.joined(separator: "; "), key: key)
        }
    }

    /// The context path of a decide pointer: `/installId` → `targetingKey`, `/features/2/history/prime` →
    /// `features.<name>.history.prime` (bulk) or `history.prime` (single).
    private static func contextPath(
        _ pointer: String, features: [JSONValue], key: String?, stateMember: (String) -> String
    ) -> String {
        var tokens = pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
        guard let first = tokens.first else { return "" }
        if let (contextName, _) = contextMembers.first(where: { $0.1 == first }) {
            tokens[0] = contextName
            return tokens.joined(separator: ".")
        }
        guard first == "features", tokens.count >= 2, let index = Int(tokens[1]), features.indices.contains(index)
        else { return tokens.joined(separator: ".") }
        let name = features[index].objectValue?["feature"]?.stringValue ?? tokens[1]
        var rest = Array(tokens.dropFirst(2))
        if let member = rest.first { rest[0] = stateMember(member) }
        if key != nil { return rest.isEmpty ? "key" : rest.joined(separator: ".") }
        return (["features", name] + rest).joined(separator: ".")
    }
}
