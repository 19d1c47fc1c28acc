// The `ofrep` target: an OFREP evaluation body translated into the decide request it stands for (OFREPRequest).
import PreludeCore
import PreludeHTTP

@testable import PreludeService

/// The demo policy's features in catalogue order: what the bulk call evaluates, and the single call's flag keys.
let demoFeatures = demoPolicy.orderedFeatures.map(\.feature)

/// The members of a single flag's context that make up the feature's state (docs/openfeature.md).
private let ofrepStateMembers = [
    "status", "available", "osVersion", "history", "trackingPromptShown", "origin", "insufficientlyInUse",
    "preventsAutomaticLimitedAccessAlert",
]

/// `ofrep`: the first byte chooses the call (below 128: the single-flag evaluation of the demo feature at that index,
/// modulo their number; from 128: the bulk call), then the
/// body, then an optional `Accept-Language` after the first NUL byte. A failure is a 400 with one of the
/// specification's error codes and an error body that parses; a success evaluates the flag (or every feature) and
/// each state decides in the demo policy. A single flag's translation equals the bulk call's for the same state
/// sent under `features` (the two OFREP shapes are one decide request).
func fuzzOFREP(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let selector = bytes.first else { return }
    let parts = bytes.dropFirst().split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false)
    let body = parts.first.map { Array($0) } ?? []
    let acceptLanguage = parts.count > 1 ? String(decoding: parts[1], as: UTF8.self) : nil
    let feature = selector < 128 ? demoFeatures[Int(selector) % demoFeatures.count] : nil

    let translated = Result { () throws(OFREPFailure) in
        if let feature {
            return try OFREPRequest.single(body, feature: feature, acceptLanguage: acceptLanguage)
        }
        return try OFREPRequest.bulk(body, configured: demoFeatures, acceptLanguage: acceptLanguage)
    }
    let request: DecideRequest
    switch translated {
    case .failure(let failure):
        checkOFREPFailure(failure, key: feature?.rawValue, body: body)
        return
    case .success(let decided):
        request = decided
    }
    let expected = feature.map { [$0] } ?? demoFeatures
    guard request.states.map(\.feature) == expected else {
        fuzzFailure(
            "the translation evaluates other features than asked",
            "asked: \(expected)\ngot: \(request.states.map(\.feature))\nbody: \(String(decoding: body, as: UTF8.self))")
    }
    let policy = PolicyResolver.resolve(demoPolicy, context: request.context)
    let now = Instant(secondsSinceEpoch: Double(fuzzNowMilliseconds) / 1000)
    for state in request.states {
        if let decision = try? DecisionEngine.decide(in: policy, state: state, now: now) {
            _ = OFREPEvaluation.json(decision, revision: 1, locale: "en")
        }
    }
    if let feature {
        checkSingleAgreesWithBulk(body, feature: feature, single: request, acceptLanguage: acceptLanguage)
    }
}

/// A refused evaluation: 400, one of the request errors of the specification, the flag's key on a single call and
/// none on the bulk call, and an error body that is JSON naming the code.
private func checkOFREPFailure(_ failure: OFREPFailure, key: String?, body: [UInt8]) {
    let codes: Set<String?> = ["PARSE_ERROR", "TARGETING_KEY_MISSING", "INVALID_CONTEXT"]
    guard failure.status == .badRequest, codes.contains(failure.errorCode), failure.key == key,
        !failure.details.isEmpty
    else {
        fuzzFailure(
            "an OFREP refusal outside the specification", "\(failure)\nbody: \(String(decoding: body, as: UTF8.self))")
    }
    guard let parsed = try? JSONValue(parsing: failure.response.body),
        parsed.objectValue?["errorCode"]?.stringValue == failure.errorCode
    else {
        fuzzFailure("an OFREP error body is not the specification's JSON", "\(failure)")
    }
}

/// The single call's state sent to the bulk call under `features.<feature>` must translate to the same state and
/// the same client context.
private func checkSingleAgreesWithBulk(
    _ body: [UInt8], feature: Feature, single: DecideRequest, acceptLanguage: String?
) {
    guard case .object(let outer)? = try? JSONValue(parsing: body), case .object(var context)? = outer["context"]
    else { return }
    var state = JSONObject()
    for name in ofrepStateMembers {
        if let value = context[name] {
            state[name] = value
            context[name] = nil
        }
    }
    var features = JSONObject()
    features[feature.rawValue] = .object(state)
    context["features"] = .object(features)
    var wrapper = JSONObject()
    wrapper["context"] = .object(context)
    let bulkBody = JSONValue.object(wrapper).serializedBytes()
    do {
        let bulk = try OFREPRequest.bulk(bulkBody, configured: demoFeatures, acceptLanguage: acceptLanguage)
        guard bulk.context == single.context, bulk.states.first(where: { $0.feature == feature }) == single.states.first
        else {
            fuzzFailure(
                "the single and bulk translations of one state differ",
                "single: \(single)\nbulk: \(bulk)\nbody: \(String(decoding: body, as: UTF8.self))")
        }
    } catch {
        fuzzFailure(
            "the bulk call refuses a state the single call accepts",
            "\(error)\nbody: \(String(decoding: bulkBody, as: UTF8.self))")
    }
}
