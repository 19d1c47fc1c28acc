import PreludeCore
import PreludeHTTP
import PreludeStore

/// The experiment endpoints, holding the policy writer and the audit log (a restart's coverage).
struct ExperimentRoutes: AdminRouteCollection {
    let writer: PolicyWriter
    let audit: AuditLog

    /// Experiment endpoints (docs/admin.md, "Experiments"). An experiment is part of its app's policy: its ETag is
    /// the policy's, and each write makes a new policy revision through ``write(_:app:ifMatch:context:action:status:extraDetail:)``
    /// — validated as a whole, linted, audited — like every other admin write.
    ///
    /// - `GET …/experiments`: every experiment with its status (`running`, or `stopped` at coverage 0).
    /// - `GET`/`PUT`/`PATCH`/`DELETE …/experiments/{key}`: read, create or replace, merge-patch, remove one.
    /// - `POST …/experiments/{key}/stop`, `…/start`, `…/conclude`: coverage to 0 (assignments are kept for a
    ///   restart), coverage back (to the value before the last stop, or the body's `coverage`), and remove the
    ///   experiment while the winner's `set` becomes the feature's own settings.
    func register(on group: inout AdminRouteGroup) {
        let base = "/experiments"
        group.addEnvironmental(.get, base, query: []) { [self] context in
            let snapshot = try writer.servedPolicy(context.target)
            let list = snapshot.document.experiments.map { experiment -> JSONValue in
                var object = experiment.jsonValue.objectValue ?? JSONObject()
                object["status"] = .string(Self.status(experiment))
                return .object(object)
            }
            return AdminResponse.json(
                ["app": .string(snapshot.appID), "experiments": .array(list)], pretty: context.pretty,
                headers: ["ETag": snapshot.etag.headerValue])
        }
        group.addEnvironmental(.get, base + "/{key}", query: []) { [self] context in
            let snapshot = try writer.servedPolicy(context.target)
            let (_, experiment) = try Self.experiment(context.parameter("key"), in: snapshot)
            var headers: HTTPHeaders = ["ETag": snapshot.etag.headerValue]
            headers.set("Prelude-Experiment-Status", Self.status(experiment))
            return AdminResponse.json(experiment.jsonValue, pretty: context.pretty, headers: headers)
        }
        group.addEnvironmental(.put, base + "/{key}", query: ["message"]) { [self] context in
            try writer.splice(context, reading: { try AdminRequestBody.parse(context.request) }) { body, snapshot in
                let key = context.parameter("key")
                let body = try Self.withKey(key, body)
                var experiments = snapshot.document.jsonValue["experiments"]?.arrayValue ?? []
                let index = experiments.firstIndex { $0["key"]?.stringValue == key }
                if let index { experiments[index] = body } else { experiments.append(body) }
                return Self.splice(
                    experiments, in: snapshot, key: key,
                    action: index == nil ? "experiment.create" : "experiment.replace",
                    status: index == nil ? .created : .ok)
            }
        }
        group.addEnvironmental(.patch, base + "/{key}", query: ["message"]) { [self] context in
            let patch = {
                try AdminRequestBody.parse(
                    context.request, accepting: [AdminRequestBody.mergePatch, AdminRequestBody.json])
            }
            return try writer.splice(context, reading: patch) { patch, snapshot in
                let key = context.parameter("key")
                let (index, _) = try Self.experiment(key, in: snapshot)
                var experiments = snapshot.document.jsonValue["experiments"]?.arrayValue ?? []
                experiments[index] = try Self.patched(experiments[index], with: patch, key: key)
                return Self.splice(experiments, in: snapshot, key: key, action: "experiment.patch")
            }
        }
        group.addEnvironmental(.delete, base + "/{key}", query: ["message"]) { [self] context in
            try writer.splice(context) { snapshot in
                let key = context.parameter("key")
                let (index, _) = try Self.experiment(key, in: snapshot)
                var experiments = snapshot.document.jsonValue["experiments"]?.arrayValue ?? []
                experiments.remove(at: index)
                return Self.splice(experiments, in: snapshot, key: key, action: "experiment.delete")
            }
        }
        registerActions(on: &group, base: base)
    }

    /// `POST …/experiments/{key}/stop`, `…/start` and `…/conclude`.
    private func registerActions(on group: inout AdminRouteGroup, base: String) {
        group.addEnvironmental(.post, base + "/{key}/stop", query: ["message"]) { [self] context in
            try writer.splice(context) { snapshot in
                let key = context.parameter("key")
                let (index, experiment) = try Self.experiment(key, in: snapshot)
                var experiments = snapshot.document.jsonValue["experiments"]?.arrayValue ?? []
                experiments[index] = experiments[index].mergePatch(["coverage": .integer(0)])
                return Self.splice(
                    experiments, in: snapshot, key: key, action: "experiment.stop",
                    detail: [("previousCoverage", .number(experiment.coverage))])
            }
        }
        group.addEnvironmental(.post, base + "/{key}/start", query: ["message"]) { [self] context in
            try writer.splice(context, reading: { try Self.startCoverage(context.request) }) { coverage, snapshot in
                let key = context.parameter("key")
                let (index, experiment) = try Self.experiment(key, in: snapshot)
                let target =
                    try coverage
                    ?? (experiment.coverage > 0 ? experiment.coverage : coverageBeforeStop(context.target, key))
                var experiments = snapshot.document.jsonValue["experiments"]?.arrayValue ?? []
                experiments[index] = experiments[index].mergePatch(["coverage": .number(target)])
                return Self.splice(
                    experiments, in: snapshot, key: key, action: "experiment.start",
                    detail: [("coverage", .number(target))])
            }
        }
        group.addEnvironmental(.post, base + "/{key}/conclude", query: ["message"]) { [self] context in
            try writer.splice(context, reading: { try Self.winner(context.request) }) { winner, snapshot in
                try Self.concluded(context.parameter("key"), winner: winner, in: snapshot)
            }
        }
    }

    /// The splice replacing the policy's experiments with `experiments`, its audit detail naming `key`.
    private static func splice(
        _ experiments: [JSONValue], in snapshot: ServedPolicy, key: String, action: String, status: HTTPStatus = .ok,
        detail: [(String, JSONValue)] = []
    ) -> PolicyWriter.Splice {
        PolicyWriter.Splice(
            document: setting(experiments: experiments, in: snapshot.document.jsonValue), action: action,
            status: status, detail: JSONObject([("experiment", .string(key))] + detail))
    }

    /// The optional `{"coverage": number}` of a start.
    private static func startCoverage(_ request: HTTPRequest) throws(ProblemDetails) -> Double? {
        try optionalBody(request).flatMap { body throws(ProblemDetails) in
            try member("coverage", of: body, allowed: ["coverage"]).map { value throws(ProblemDetails) in
                guard let number = value.doubleValue else {
                    throw AdminProblem.invalidRequest(
                        "coverage is a number from 0 to 1", pointer: "/coverage", code: "type.mismatch",
                        status: .unprocessableContent)
                }
                return number
            }
        }
    }

    /// The `{"winner": name}` of a conclusion.
    private static func winner(_ request: HTTPRequest) throws(ProblemDetails) -> String {
        guard let body = try optionalBody(request),
            case .string(let winner)? = try member("winner", of: body, allowed: ["winner"])
        else {
            throw AdminProblem.invalidRequest(
                "send {\"winner\": \"<variant name>\"}: the variant whose settings the feature keeps",
                pointer: "/winner", code: "member.missing", status: .unprocessableContent)
        }
        return winner
    }

    /// The policy without experiment `key`, the winner's `set` become the feature's own settings.
    private static func concluded(_ key: String, winner: String, in snapshot: ServedPolicy) throws
        -> PolicyWriter.Splice
    {
        let (index, experiment) = try experiment(key, in: snapshot)
        guard let variant = experiment.variants.first(where: { $0.name == winner }) else {
            throw AdminProblem.invalidRequest(
                "'\(winner)' is not a variant of \(key) (\(experiment.variants.map(\.name).joined(separator: ", ")))",
                pointer: "/winner", code: "value.invalid", status: .unprocessableContent)
        }
        var document = snapshot.document.jsonValue
        var experiments = document["experiments"]?.arrayValue ?? []
        experiments.remove(at: index)
        document = setting(experiments: experiments, in: document)
        // The winner's `set` becomes the feature's own settings (RFC 7396 merge: copy text by text, like the
        // resolver layers a variant over the feature).
        let winnerSet = variant.set.jsonValue
        let feature = experiment.feature.rawValue
        document = document.mergePatch(["features": .object(JSONObject([(feature, winnerSet)]))])
        return PolicyWriter.Splice(
            document: document, action: "experiment.conclude",
            detail: JSONObject([
                ("experiment", .string(key)), ("winner", .string(winner)), ("feature", .string(feature)),
                ("applied", winnerSet),
            ]))
    }

    /// `running`, or `stopped` when no install is enrolled (coverage 0).
    static func status(_ experiment: Experiment) -> String { experiment.coverage > 0 ? "running" : "stopped" }

    /// The coverage an experiment had before its last `experiment.stop` (the audit log keeps it), or 1.
    private func coverageBeforeStop(_ target: PolicyStore.Key, _ key: String) throws -> Double {
        let value = try audit.coverageBeforeLastStop(
            app: target.app, environment: target.environment, experiment: key)
        guard let previous = value, previous > 0 else { return 1 }
        return previous
    }

    /// The position and decoded form of experiment `key` in the live policy; 404 naming it otherwise.
    private static func experiment(_ key: String, in snapshot: ServedPolicy) throws(ProblemDetails) -> (Int, Experiment)
    {
        guard let index = snapshot.document.experiments.firstIndex(where: { $0.key == key }) else {
            throw AdminProblem.notFound(
                "app \"\(snapshot.appID)\" has no experiment \"\(key)\" "
                    + "(PUT /v1/admin/apps/\(snapshot.appID)/experiments/\(key) adds it)")
        }
        return (index, snapshot.document.experiments[index])
    }

    /// `body` with `key` set; 422 when the body is not an object or names another key.
    private static func withKey(_ key: String, _ body: JSONValue) throws(ProblemDetails) -> JSONValue {
        guard case .object(var object) = body else {
            throw AdminProblem.invalidRequest(
                "an experiment is a JSON object", pointer: "", code: "type.mismatch", status: .unprocessableContent)
        }
        if let given = object["key"], given != .string(key) {
            throw AdminProblem.invalidRequest(
                "key must be \"\(key)\" at this address (or left out)", pointer: "/key", code: "value.invalid",
                status: .unprocessableContent)
        }
        object["key"] = .string(key)
        return .object(object)
    }

    /// RFC 7396 merge of `patch` into an experiment, with one extension: `variants` given as an object keyed by
    /// variant name patches those variants in place (`{"variants": {"b": {"weight": 70}}}`; null removes one, an
    /// unknown name appends it), so changing weights does not resend every variant. An array replaces them all.
    private static func patched(_ current: JSONValue, with patch: JSONValue, key: String) throws(ProblemDetails)
        -> JSONValue
    {
        guard case .object(var members) = patch else { return try withKey(key, current.mergePatch(patch)) }
        var result = current
        if case .object(let byName)? = members["variants"] {
            var variants = current["variants"]?.arrayValue ?? []
            for (name, variantPatch) in byName.members {
                if let position = variants.firstIndex(where: { $0["name"]?.stringValue == name }) {
                    if variantPatch == .null {
                        variants.remove(at: position)
                    } else {
                        variants[position] = variants[position].mergePatch(variantPatch)
                        if variants[position]["name"] != .string(name) {
                            throw AdminProblem.invalidRequest(
                                "a variant is renamed by removing it (null) and adding the new name",
                                pointer: "/variants/" + JSONPointer.escape(name) + "/name", code: "value.invalid",
                                status: .unprocessableContent)
                        }
                    }
                } else if variantPatch != .null {
                    var added = JSONObject([("name", .string(name))])
                    for (member, value) in (variantPatch.objectValue ?? JSONObject()).members where value != .null {
                        added[member] = value
                    }
                    variants.append(.object(added))
                }
            }
            result = result.mergePatch(["variants": .array(variants)])
            members["variants"] = nil
        }
        return try withKey(key, result.mergePatch(.object(members)))
    }

    private static func setting(experiments: [JSONValue], in document: JSONValue) -> JSONValue {
        guard case .object(var root) = document else { return document }
        root["experiments"] = .array(experiments)
        return .object(root)
    }

    /// The body parsed as JSON, or nil when the request has none (the action endpoints take an optional body).
    private static func optionalBody(_ request: HTTPRequest) throws(ProblemDetails) -> JSONValue? {
        guard !request.body.isEmpty else { return nil }
        return try AdminRequestBody.parse(request)
    }

    /// Member `name` of an action's body; 422 for a body that is not an object or has other members.
    private static func member(_ name: String, of body: JSONValue, allowed: [String]) throws(ProblemDetails)
        -> JSONValue?
    {
        guard case .object(let object) = body else {
            throw AdminProblem.invalidRequest(
                "the body must be a JSON object", pointer: "", code: "type.mismatch", status: .unprocessableContent)
        }
        if let unknown = object.members.first(where: { !allowed.contains($0.key) }) {
            throw AdminProblem.invalidRequest(
                "'\(unknown.key)' is not understood here; members: \(allowed.joined(separator: ", "))",
                pointer: JSONPointer.root.appending(unknown.key).description, code: "member.unknown",
                status: .unprocessableContent)
        }
        return object[name]
    }
}
