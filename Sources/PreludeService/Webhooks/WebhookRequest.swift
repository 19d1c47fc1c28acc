import PreludeCore
import PreludeHTTP
import PreludeStore

/// The body of a webhook registration (`POST`) or change (`PATCH`), checked member by member: every problem is
/// reported at once with its JSON pointer, and nothing is written when there is one.
struct WebhookRequest: Sendable, Equatable {
    var url: String?
    var events: [WebhookEventType]?
    /// `.some(nil)`: every environment (the member was null).
    var environments: [String]??
    var secret: String?
    var rotateSecret = false
    var description: String??
    var enabled: Bool?

    /// `{"url", "events", "environments"?, "secret"?, "description"?, "enabled"?}`: `url` and `events` required.
    static func registration(_ body: JSONValue, allowlist: WebhookAllowlist) throws(ProblemDetails) -> WebhookRequest {
        try parse(body, allowlist: allowlist, creating: true)
    }

    /// Any of `url`, `events`, `environments` (null: every environment), `description` (null clears it),
    /// `enabled`, and `secret` or `"rotateSecret": true`.
    static func update(_ body: JSONValue, allowlist: WebhookAllowlist) throws(ProblemDetails) -> WebhookRequest {
        try parse(body, allowlist: allowlist, creating: false)
    }

    private static func parse(_ body: JSONValue, allowlist: WebhookAllowlist, creating: Bool) throws(ProblemDetails)
        -> WebhookRequest
    {
        guard let object = body.objectValue else {
            throw AdminProblem.invalidRequest(
                "the body must be an object {\"url\": ..., \"events\": [...]}", pointer: "", code: "type.mismatch",
                status: .unprocessableContent)
        }
        var request = WebhookRequest()
        var problems: [FieldProblem] = []
        func problem(_ pointer: String, _ code: String, _ detail: String) {
            problems.append(FieldProblem(pointer: pointer, code: code, detail: detail))
        }
        let known: Set<String> =
            creating
            ? ["url", "events", "environments", "secret", "description", "enabled"]
            : ["url", "events", "environments", "secret", "rotateSecret", "description", "enabled"]
        for key in object.keys where !known.contains(key) {
            problem(
                "/\(JSONPointer.escape(key))", "member.unknown",
                "unknown member '\(key)'; known: \(known.sorted().joined(separator: ", "))")
        }
        switch object["url"] {
        case nil:
            if creating { problem("/url", "member.missing", "a string 'url' is required") }
        case .string(let text):
            switch allowlist.check(text) {
            case .success: request.url = text
            case .failure(.malformed(let reason)): problem("/url", "webhook.urlInvalid", reason)
            case .failure(let refusal): problem("/url", "webhook.urlNotAllowed", refusal.description)
            }
        default: problem("/url", "type.mismatch", "'url' must be a string")
        }
        let names = WebhookEventType.allCases.map(\.rawValue).joined(separator: ", ")
        switch object["events"] {
        case nil:
            if creating { problem("/events", "member.missing", "an array 'events' is required; known types: \(names)") }
        case .array(let items):
            var events: [WebhookEventType] = []
            for (index, item) in items.enumerated() {
                if let type = item.stringValue.flatMap(WebhookEventType.init(rawValue:)) {
                    events.append(type)
                } else {
                    problem("/events/\(index)", "webhook.unknownEvent", "not an event type; known types: \(names)")
                }
            }
            if items.isEmpty { problem("/events", "value.invalid", "'events' must name at least one type: \(names)") }
            request.events = events
        default: problem("/events", "type.mismatch", "'events' must be an array of event types: \(names)")
        }
        switch object["environments"] {
        case nil: break
        case .null: request.environments = .some(nil)
        case .array(let items):
            var names: [String] = []
            for (index, item) in items.enumerated() {
                if let name = item.stringValue, EnvironmentName.isValid(name) {
                    names.append(name)
                } else {
                    problem(
                        "/environments/\(index)", "value.invalid",
                        "not an environment name (\(EnvironmentName.rule))")
                }
            }
            if items.isEmpty {
                problem(
                    "/environments", "value.invalid",
                    "'environments' must name at least one environment, or be null (or absent) for every one")
            }
            request.environments = .some(names)
        default:
            problem(
                "/environments", "type.mismatch", "'environments' must be an array of environment names, or null")
        }
        switch object["secret"] {
        case nil: break
        case .string(let text) where WebhookSecret.key(text) != nil: request.secret = text
        default:
            problem(
                "/secret", "webhook.invalidSecret",
                "'secret' must be 'whsec_' followed by the base64 of \(WebhookSecret.minimumBytes)–"
                    + "\(WebhookSecret.maximumBytes) random bytes; leave it out to have one generated")
        }
        switch object["rotateSecret"] {
        case nil, .bool(false): break
        case .bool(true):
            if object["secret"] != nil {
                problem("/rotateSecret", "value.invalid", "give either 'secret' or 'rotateSecret', not both")
            }
            request.rotateSecret = true
        default: problem("/rotateSecret", "type.mismatch", "'rotateSecret' must be a boolean")
        }
        switch object["description"] {
        case nil: break
        case .null: request.description = .some(nil)
        case .string(let text) where text.count <= AdminAPI.maxWebhookDescription: request.description = .some(text)
        default:
            problem(
                "/description", "value.invalid",
                "'description' must be a string of at most \(AdminAPI.maxWebhookDescription) characters (or null)")
        }
        switch object["enabled"] {
        case nil: break
        case .bool(let flag): request.enabled = flag
        default: problem("/enabled", "type.mismatch", "'enabled' must be a boolean")
        }
        guard problems.isEmpty else {
            throw ProblemDetails(
                status: .unprocessableContent, type: PublicProblem.validation, title: "The request is not valid",
                detail: "\(problems.count) problem\(problems.count == 1 ? "" : "s"); nothing was changed",
                errors: problems)
        }
        return request
    }
}
