import PreludeCore
import PreludeHTTP
import PreludeStore

/// `/v1/admin/apps/{app}/webhooks`: register, list, show, change and delete an app's webhooks; their deliveries
/// with attempts and last error; redeliver one by hand (docs/webhooks.md). Reads need `read`, the rest `write`.
/// A secret appears in an answer only when it was just created or rotated.
/// The webhook endpoints (docs/webhooks.md), holding the webhook store, the allow-list, the dispatcher to wake and
/// the policy writer (whether the app exists).
struct WebhookRoutes: AdminRouteCollection {
    let writer: PolicyWriter
    let webhooks: WebhookStore
    let webhookAllowlist: WebhookAllowlist
    let webhookDispatcher: WebhookDispatcher?
    let clock: ServiceClock

    /// The current time in milliseconds since the epoch.
    var now: Int64 { clock.milliseconds }

    /// The longest webhook description accepted.
    static let maxWebhookDescription = 500

    func register(on group: inout AdminRouteGroup) {
        let base = "/v1/admin/apps/{app}/webhooks"
        group.add(.get, base, query: []) { [self] context in
            let app = context.parameter("app")
            guard let list = try webhooks.webhooks(app: app) else { throw PolicyStoreProblem.unknownApp(app) }
            // A token limited to some environments sees the webhooks that hear one of them.
            let visible = list.filter { Self.grant(context.token.grant, covers: $0) }
            return AdminResponse.json(
                ["webhooks": .array(visible.map { Self.webhookJSON($0, secret: nil) })], pretty: context.pretty)
        }
        group.add(.post, base, query: [], maxBodySize: 16 << 10) { [self] context in
            let app = context.parameter("app")
            let request = try WebhookRequest.registration(
                AdminRequestBody.parse(context.request), allowlist: webhookAllowlist)
            let secret = request.secret ?? WebhookSecret.generate()
            let webhook = try webhooks.create(
                app: app, url: request.url!, secret: secret, events: request.events!,
                environments: request.environments ?? nil, description: request.description ?? nil,
                enabled: request.enabled ?? true,
                actor: context.token.name, at: now)
            context.logger.info(
                "webhook registered", ["app": app, "webhook": webhook.id, "by": context.token.name])
            var headers = HTTPHeaders()
            headers.set("Location", "/v1/admin/apps/\(app)/webhooks/\(webhook.id)")
            // The only answer with the secret (unless it is rotated); `no-store` keeps it out of caches.
            return AdminResponse.json(
                Self.webhookJSON(webhook, secret: secret), pretty: context.pretty, status: .created, headers: headers)
        }
        group.add(.get, base + "/{webhook}", query: []) { [self] context in
            AdminResponse.json(Self.webhookJSON(try existingWebhook(context), secret: nil), pretty: context.pretty)
        }
        group.add(.patch, base + "/{webhook}", query: [], maxBodySize: 16 << 10) { [self] context in
            let app = context.parameter("app")
            let body = try AdminRequestBody.parse(
                context.request, accepting: [AdminRequestBody.json, AdminRequestBody.mergePatch])
            let request = try WebhookRequest.update(body, allowlist: webhookAllowlist)
            _ = try existingWebhook(context)
            let secret = request.rotateSecret ? WebhookSecret.generate() : request.secret
            let update = WebhookStore.Update(
                url: request.url, secret: secret, events: request.events, environments: request.environments,
                description: request.description, enabled: request.enabled)
            let webhook = try webhooks.update(
                app: app, id: context.parameter("webhook"), update, actor: context.token.name, at: now)
            if webhook.enabled { webhookDispatcher?.wake() }
            return AdminResponse.json(Self.webhookJSON(webhook, secret: secret), pretty: context.pretty)
        }
        group.add(.delete, base + "/{webhook}", query: []) { [self] context in
            _ = try existingWebhook(context)
            try webhooks.delete(
                app: context.parameter("app"), id: context.parameter("webhook"), actor: context.token.name, at: now)
            return HTTPResponse(status: .noContent)
        }
        group.add(.get, base + "/{webhook}/deliveries", query: ["state", "before", "limit"]) { [self] context in
            let state = try context.request.queryValue("state").map { text throws(ProblemDetails) in
                guard let state = WebhookDelivery.State(rawValue: text) else {
                    throw AdminProblem.invalidRequest(
                        "query parameter 'state' must be pending, delivered or failed, not '\(text)'")
                }
                return state
            }
            let limit = try AdminAPI.integerQuery(context.request, "limit", default: 50, range: 1...500)
            guard
                let list = try webhooks.deliveries(
                    app: context.parameter("app"), webhook: context.parameter("webhook"), state: state,
                    before: context.request.queryValue("before"), limit: limit)
            else { throw try missingWebhook(context) }
            return AdminResponse.json(
                ["deliveries": .array(list.map { Self.deliveryJSON($0, attempts: nil) })], pretty: context.pretty)
        }
        group.add(.get, base + "/{webhook}/deliveries/{delivery}", query: []) { [self] context in
            guard
                let (delivery, attempts) = try webhooks.delivery(
                    app: context.parameter("app"), webhook: context.parameter("webhook"),
                    delivery: context.parameter("delivery"))
            else { throw try missingDelivery(context) }
            return AdminResponse.json(Self.deliveryJSON(delivery, attempts: attempts), pretty: context.pretty)
        }
        group.add(.post, base + "/{webhook}/deliveries/{delivery}/redeliver", query: []) { [self] context in
            let delivery = try webhooks.redeliver(
                app: context.parameter("app"), webhook: context.parameter("webhook"),
                delivery: context.parameter("delivery"), actor: context.token.name, at: now)
            webhookDispatcher?.wake()
            context.logger.info(
                "webhook redelivery",
                ["delivery": delivery.id, "webhook": delivery.webhookID, "by": context.token.name])
            return AdminResponse.json(
                Self.deliveryJSON(delivery, attempts: nil), pretty: context.pretty, status: .accepted)
        }
    }

    /// The webhook the path names; 404 naming the app or the webhook otherwise.
    /// The webhook addressed, as a token may see it: one that hears no environment its grant covers is not found.
    private func existingWebhook(_ context: Context) throws -> Webhook {
        guard let webhook = try webhooks.webhook(app: context.parameter("app"), id: context.parameter("webhook")),
            Self.grant(context.token.grant, covers: webhook)
        else {
            throw try missingWebhook(context)
        }
        return webhook
    }

    /// Whether `grant` covers an environment `webhook` hears (every environment when it names none).
    static func grant(_ grant: TokenGrant, covers webhook: Webhook) -> Bool {
        guard let environments = webhook.environments else { return grant.covers(app: webhook.app) }
        return environments.contains { grant.covers(app: webhook.app, environment: $0) }
    }

    private func missingWebhook(_ context: Context) throws -> ProblemDetails {
        let app = context.parameter("app")
        if try webhooks.webhooks(app: app) == nil { return PolicyStoreProblem.unknownApp(app) }
        return AdminProblem.notFound("app '\(app)' has no webhook '\(context.parameter("webhook"))'")
    }

    private func missingDelivery(_ context: Context) throws -> ProblemDetails {
        _ = try existingWebhook(context)
        return AdminProblem.notFound(
            "webhook '\(context.parameter("webhook"))' has no delivery '\(context.parameter("delivery"))'")
    }

    /// A webhook as the API shows it; `secret` only when it was just created or rotated.
    static func webhookJSON(_ webhook: Webhook, secret: String?) -> JSONValue {
        var object = JSONObject()
        object["id"] = .string(webhook.id)
        object["app"] = .string(webhook.app)
        object["url"] = .string(webhook.url)
        object["events"] = .array(webhook.events.map { .string($0.rawValue) })
        object["environments"] = webhook.environments.map { .array($0.map(JSONValue.string)) } ?? .null
        object["description"] = webhook.description.map(JSONValue.string) ?? .null
        object["enabled"] = .bool(webhook.enabled)
        object["disabledReason"] = webhook.disabledReason.map(JSONValue.string) ?? .null
        object["createdBy"] = .string(webhook.createdBy)
        object["createdAt"] = .string(AdminTime.iso8601(webhook.createdAt))
        object["updatedAt"] = .string(AdminTime.iso8601(webhook.updatedAt))
        if let secret { object["secret"] = .string(secret) }
        return .object(object)
    }

    /// A delivery as the API shows it; with `attempts`, also the payload as sent and every attempt.
    static func deliveryJSON(_ delivery: WebhookDelivery, attempts: [WebhookAttempt]?) -> JSONValue {
        func time(_ milliseconds: Int64?) -> JSONValue { milliseconds.map { .string(AdminTime.iso8601($0)) } ?? .null }
        var object = JSONObject()
        object["id"] = .string(delivery.id)
        object["webhook"] = .string(delivery.webhookID)
        object["app"] = .string(delivery.app)
        object["environment"] = .string(delivery.environment)
        object["event"] = .string(delivery.eventType)
        object["state"] = .string(delivery.state.rawValue)
        object["attempts"] = .integer(delivery.attempts)
        object["nextAttemptAt"] = delivery.state == .pending ? time(delivery.nextAttemptAt) : .null
        object["lastAttemptAt"] = time(delivery.lastAttemptAt)
        object["lastStatus"] = delivery.lastStatus.map { .integer($0) } ?? .null
        object["lastError"] = delivery.lastError.map(JSONValue.string) ?? .null
        object["deliveredAt"] = time(delivery.deliveredAt)
        object["occurredAt"] = time(delivery.occurredAt)
        object["createdAt"] = time(delivery.createdAt)
        if let attempts {
            object["payload"] = WebhookMessage.jsonValue(delivery)
            object["attemptLog"] = .array(
                attempts.map { attempt in
                    .object(
                        JSONObject([
                            ("number", .integer(attempt.number)), ("startedAt", time(attempt.startedAt)),
                            ("durationMs", .integer(Int(attempt.durationMilliseconds))),
                            ("status", attempt.status.map { .integer($0) } ?? .null),
                            ("error", attempt.error.map(JSONValue.string) ?? .null),
                        ]))
                })
        }
        return .object(object)
    }
}
