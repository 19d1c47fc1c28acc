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
        var reader = try RequestBodyReader(
            body: body, expected: "the body must be an object {\"url\": ..., \"events\": [...]}")
        let known: Set<String> =
            creating
            ? ["url", "events", "environments", "secret", "description", "enabled"]
            : ["url", "events", "environments", "secret", "rotateSecret", "description", "enabled"]
        reader.reportUnknown(allowed: known) {
            "unknown member '\($0)'; known: \(known.sorted().joined(separator: ", "))"
        }
        var request = WebhookRequest()
        if let text = reader.read(
            "url", as: .string, missing: creating ? "a string 'url' is required" : nil,
            mismatch: "'url' must be a string")
        {
            switch allowlist.check(text) {
            case .success: request.url = text
            case .failure(.malformed(let reason)): reader.report("url", "webhook.urlInvalid", reason)
            case .failure(let refusal): reader.report("url", "webhook.urlNotAllowed", refusal.description)
            }
        }
        request.events = readEvents(&reader, creating: creating)
        request.environments = readEnvironments(&reader)
        switch reader["secret"] {
        case nil: break
        case .string(let text) where WebhookSecret.key(text) != nil: request.secret = text
        default:
            reader.report(
                "secret", "webhook.invalidSecret",
                "'secret' must be 'whsec_' followed by the base64 of \(WebhookSecret.minimumBytes)–"
                    + "\(WebhookSecret.maximumBytes) random bytes; leave it out to have one generated")
        }
        if reader.read("rotateSecret", as: .bool, mismatch: "'rotateSecret' must be a boolean") == true {
            if reader["secret"] != nil {
                reader.report("rotateSecret", "value.invalid", "give either 'secret' or 'rotateSecret', not both")
            }
            request.rotateSecret = true
        }
        switch reader["description"] {
        case nil: break
        case .null: request.description = .some(nil)
        case .string(let text) where text.count <= WebhookRoutes.maxWebhookDescription:
            request.description = .some(text)
        default:
            reader.report(
                "description", "value.invalid",
                "'description' must be a string of at most \(WebhookRoutes.maxWebhookDescription) characters (or null)")
        }
        request.enabled = reader.read("enabled", as: .bool, mismatch: "'enabled' must be a boolean")
        try reader.finish { RequestBodyReader.unprocessable($0) }
        return request
    }

    /// `events`: a non-empty array of event type names.
    private static func readEvents(_ reader: inout RequestBodyReader, creating: Bool) -> [WebhookEventType]? {
        let names = WebhookEventType.allCases.map(\.rawValue).joined(separator: ", ")
        guard
            let items = reader.read(
                "events", as: .array, missing: creating ? "an array 'events' is required; known types: \(names)" : nil,
                mismatch: "'events' must be an array of event types: \(names)")
        else { return nil }
        var events: [WebhookEventType] = []
        for (index, item) in items.enumerated() {
            if let type = item.stringValue.flatMap(WebhookEventType.init(rawValue:)) {
                events.append(type)
            } else {
                reader.report(
                    "events", index: index, "webhook.unknownEvent", "not an event type; known types: \(names)")
            }
        }
        if items.isEmpty { reader.report("events", "value.invalid", "'events' must name at least one type: \(names)") }
        return events
    }

    /// `environments`: absent (nil), null (every environment) or a non-empty array of names.
    private static func readEnvironments(_ reader: inout RequestBodyReader) -> [String]?? {
        if reader["environments"] == .null { return .some(nil) }
        guard
            let items = reader.read(
                "environments", as: .array, mismatch: "'environments' must be an array of environment names, or null")
        else { return nil }
        var names: [String] = []
        for (index, item) in items.enumerated() {
            if let name = item.stringValue, EnvironmentName.isValid(name) {
                names.append(name)
            } else {
                reader.report(
                    "environments", index: index, "value.invalid", "not an environment name (\(EnvironmentName.rule))")
            }
        }
        if items.isEmpty {
            reader.report(
                "environments", "value.invalid",
                "'environments' must name at least one environment, or be null (or absent) for every one")
        }
        return .some(names)
    }
}
