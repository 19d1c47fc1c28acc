import PreludeCore
import PreludeHTTP

extension AdminAPI {
    /// `GET`/`PUT`/`PATCH`/`DELETE /v1/admin/apps/{app}[/environments/{env}]/features/{feature}`. A feature is part of its app's policy:
    /// its ETag is the policy's, and each write makes a new policy revision, validated as a whole.
    func registerFeatureRoutes(on group: inout AdminRouteGroup) {
        let pattern = "/features/{feature}"
        group.addEnvironmental(.get, pattern, query: []) { [self] context in
            let (snapshot, feature) = try servedSnapshot(context)
            let features = snapshot.document.jsonValue["features"]?.objectValue ?? JSONObject()
            guard let value = features[feature] else { throw Self.unknownFeature(feature, app: snapshot.appID) }
            return AdminResponse.json(value, pretty: context.pretty, headers: ["ETag": snapshot.etag.headerValue])
        }
        group.addEnvironmental(.put, pattern, query: ["message"]) { [self] context in
            let (app, feature) = (context.parameter("app"), context.parameter("feature"))
            let ifMatch = try requireIfMatch(context, app: app)
            let body = try AdminRequestBody.parse(context.request)
            let (snapshot, _) = try servedSnapshot(context)
            var document = snapshot.document.jsonValue
            let existed = document["features"]?[feature] != nil
            document = Self.setting(feature, to: body, in: document)
            return try write(
                document, app: app, ifMatch: ifMatch, context: context,
                action: existed ? "feature.replace" : "feature.create",
                status: existed ? .ok : .created, extraDetail: JSONObject([("feature", .string(feature))]))
        }
        group.addEnvironmental(.patch, pattern, query: ["message"]) { [self] context in
            let (app, feature) = (context.parameter("app"), context.parameter("feature"))
            let ifMatch = try requireIfMatch(context, app: app)
            let patch = try AdminRequestBody.parse(
                context.request, accepting: [AdminRequestBody.mergePatch, AdminRequestBody.json])
            let (snapshot, _) = try servedSnapshot(context)
            let document = snapshot.document.jsonValue
            guard let current = document["features"]?[feature] else {
                throw Self.unknownFeature(feature, app: app)
            }
            // RFC 7396 §2: the patch is merged into the feature's current settings.
            return try write(
                Self.setting(feature, to: current.mergePatch(patch), in: document), app: app, ifMatch: ifMatch,
                context: context, action: "feature.patch", extraDetail: JSONObject([("feature", .string(feature))]))
        }
        group.addEnvironmental(.delete, pattern, query: ["message"]) { [self] context in
            let (app, feature) = (context.parameter("app"), context.parameter("feature"))
            let ifMatch = try requireIfMatch(context, app: app)
            let (snapshot, _) = try servedSnapshot(context)
            let document = snapshot.document.jsonValue
            guard document["features"]?[feature] != nil else { throw Self.unknownFeature(feature, app: app) }
            // A feature an experiment still tests cannot go: validation reports experiment.unknownFeature.
            let patched = document.mergePatch(["features": [feature: nil]])
            return try write(
                patched, app: app, ifMatch: ifMatch, context: context, action: "feature.delete",
                extraDetail: JSONObject([("feature", .string(feature))]))
        }
    }

    /// The live snapshot of the addressed app and the feature name; 404 for an unknown app, 409 for an app whose
    /// live revision cannot be served (replace the whole policy instead).
    private func servedSnapshot(_ context: Context) throws -> (ServedPolicy, String) {
        (try servedPolicy(context.target), context.parameter("feature"))
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
