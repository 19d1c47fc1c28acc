import PreludeCore
import PreludeHTTP

/// `GET`/`PUT`/`PATCH`/`DELETE /v1/admin/apps/{app}[/environments/{env}]/features/{feature}`. A feature is part of its
/// app's policy: its ETag is the policy's, and each write makes a new policy revision, validated as a whole.
struct FeatureRoutes: AdminRouteCollection {
    let writer: PolicyWriter

    func register(on group: inout AdminRouteGroup) {
        let pattern = "/features/{feature}"
        group.addEnvironmental(.get, pattern, query: []) { [self] context in
            let (snapshot, feature) = (try writer.servedPolicy(context.target), context.parameter("feature"))
            let features = snapshot.document.jsonValue["features"]?.objectValue ?? JSONObject()
            guard let value = features[feature] else { throw Self.unknownFeature(feature, app: snapshot.appID) }
            return AdminResponse.json(value, pretty: context.pretty, headers: ["ETag": snapshot.etag.headerValue])
        }
        group.addEnvironmental(.put, pattern, query: ["message"]) { [self] context in
            try writer.splice(context, reading: { try AdminRequestBody.parse(context.request) }) { body, snapshot in
                let feature = context.parameter("feature")
                let document = snapshot.document.jsonValue
                let existed = document["features"]?[feature] != nil
                return PolicyWriter.Splice(
                    document: Self.setting(feature, to: body, in: document),
                    action: existed ? "feature.replace" : "feature.create", status: existed ? .ok : .created,
                    detail: JSONObject([("feature", .string(feature))]))
            }
        }
        group.addEnvironmental(.patch, pattern, query: ["message"]) { [self] context in
            let patch = {
                try AdminRequestBody.parse(
                    context.request, accepting: [AdminRequestBody.mergePatch, AdminRequestBody.json])
            }
            return try writer.splice(context, reading: patch) { patch, snapshot in
                let (app, feature) = (context.parameter("app"), context.parameter("feature"))
                let document = snapshot.document.jsonValue
                guard let current = document["features"]?[feature] else {
                    throw Self.unknownFeature(feature, app: app)
                }
                // RFC 7396 §2: the patch is merged into the feature's current settings.
                return PolicyWriter.Splice(
                    document: Self.setting(feature, to: current.mergePatch(patch), in: document),
                    action: "feature.patch", detail: JSONObject([("feature", .string(feature))]))
            }
        }
        group.addEnvironmental(.delete, pattern, query: ["message"]) { [self] context in
            try writer.splice(context) { snapshot in
                let (app, feature) = (context.parameter("app"), context.parameter("feature"))
                let document = snapshot.document.jsonValue
                guard document["features"]?[feature] != nil else { throw Self.unknownFeature(feature, app: app) }
                // A feature an experiment still tests cannot go: validation reports experiment.unknownFeature.
                return PolicyWriter.Splice(
                    document: document.mergePatch(["features": [feature: nil]]), action: "feature.delete",
                    detail: JSONObject([("feature", .string(feature))]))
            }
        }
    }

    private static func setting(_ feature: String, to value: JSONValue, in document: JSONValue) -> JSONValue {
        guard case .object(var root) = document else { return document }
        var features = root["features"]?.objectValue ?? JSONObject()
        features[feature] = value
        root["features"] = .object(features)
        return .object(root)
    }

    private static func unknownFeature(_ feature: String, app: String) -> ProblemDetails {
        // Only a catalogue feature can be added; for a typo, name the feature meant (docs/policy.md, catalogue).
        guard Feature(rawValue: feature) == nil else {
            return AdminProblem.notFound(
                "app \"\(app)\" has no feature \"\(feature)\" (PUT /v1/admin/apps/\(app)/features/\(feature) adds it)")
        }
        let known = Feature.allCases.map(\.rawValue)
        let hint = TypoSuggestion.closest(to: feature, among: known).map { "did you mean \"\($0)\"? " } ?? ""
        return AdminProblem.notFound(
            "\"\(feature)\" is not a catalogue feature (\(hint)known features: \(known.joined(separator: ", ")))")
    }
}
