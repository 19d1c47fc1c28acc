import PreludeCore

/// One flag's OFREP evaluation (`evaluationSuccess` in docs/ofrep/openapi.yaml) from the engine's decision.
///
/// `{"key": "camera", "value": {decision}, "reason": "TARGETING_MATCH", "variant": "prime", "metadata": {...}}`:
/// the value is the decision object decide returns, member for member; `variant` is the experiment variant when the
/// install is in one, the action otherwise; `metadata` carries the engine's own reason code, the policy revision and
/// the served locale.
package enum OFREPEvaluation {
    /// The OpenFeature reason: `SPLIT` when an experiment assigned the variant (bucketing by install id), `STATIC`
    /// when the policy answers the same for every context (the system picker serves the use case), otherwise
    /// `TARGETING_MATCH` (the decision follows the context: status, history, OS, availability).
    package static func reason(_ decision: Decision) -> String {
        if decision.variant != nil { return "SPLIT" }
        if decision.reason == .pickerServesUseCase { return "STATIC" }
        return "TARGETING_MATCH"
    }

    /// The OpenFeature variant: the experiment variant's name, or the action (`prime`, `proceed`, ...).
    package static func variant(_ decision: Decision) -> String {
        decision.variant?.variant ?? decision.action.rawValue
    }

    /// The evaluation object of `decision` for a policy `revision` served in `locale`.
    package static func json(_ decision: Decision, revision: Int, locale: String) -> JSONValue {
        var metadata = JSONObject()
        metadata["preludeReason"] = .string(decision.reason.rawValue)
        metadata["revision"] = .integer(revision)
        metadata["locale"] = .string(locale)
        if let variant = decision.variant { metadata["experiment"] = .string(variant.experiment) }
        var object = JSONObject()
        object["key"] = .string(decision.feature.rawValue)
        object["value"] = decision.jsonValue
        object["reason"] = .string(reason(decision))
        object["variant"] = .string(variant(decision))
        object["metadata"] = .object(metadata)
        return .object(object)
    }

    /// A flag of the bulk call the engine cannot decide on (e.g. a status the feature never reports):
    /// `evaluationFailure` with INVALID_CONTEXT, so the other flags still evaluate.
    package static func failure(_ feature: Feature, _ error: DecisionError) -> JSONValue {
        .object(
            JSONObject([
                ("key", .string(feature.rawValue)), ("errorCode", .string("INVALID_CONTEXT")),
                ("errorDetails", .string("context.features.\(feature.rawValue): \(error.description)")),
            ]))
    }
}
