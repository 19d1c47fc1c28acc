import PreludeCore

/// A webhook as stored: an app's receiver of signed deliveries (docs/webhooks.md).
package struct Webhook: Sendable, Equatable {
    /// Its id (`wh_…`).
    package var id: String
    /// The app whose changes it reports.
    package var app: String
    /// Where deliveries are posted (`https://…`, or `http://…` for a host allowed plain HTTP).
    package var url: String
    /// The signing secret (`whsec_` and base64); shown once, when created or rotated, never in a listing.
    package var secret: String
    /// The event types it receives, sorted.
    package var events: [WebhookEventType]
    /// The environments whose changes it receives, sorted; nil for every environment (also those created later).
    package var environments: [String]?
    /// A note for people.
    package var description: String?
    /// Whether new changes enqueue deliveries for it and its pending deliveries are sent.
    package var enabled: Bool
    /// Why the service disabled it (a receiver's `410 Gone`); nil when enabled or disabled by a person.
    package var disabledReason: String?
    /// Who registered it.
    package var createdBy: String
    /// When it was registered (unix ms).
    package var createdAt: Int64
    /// When it last changed (unix ms).
    package var updatedAt: Int64
}

/// One delivery: an event for one webhook, with the state of its attempts.
package struct WebhookDelivery: Sendable, Equatable {
    /// Where a delivery stands.
    package enum State: String, Sendable, Equatable, CaseIterable {
        /// Waiting for its next attempt (due at ``WebhookDelivery/nextAttemptAt``).
        case pending
        /// A receiver answered 2xx.
        case delivered
        /// Every attempt of its run failed, or the receiver refused it for good; a redelivery starts a new run.
        case failed
    }

    /// Its id (`msg_…`): the `webhook-id` of every attempt.
    package var id: String
    /// The webhook it goes to.
    package var webhookID: String
    /// The app.
    package var app: String
    /// The environment the event happened in.
    package var environment: String
    /// The event type's raw value.
    package var eventType: String
    /// When the event happened (unix ms): the payload's `timestamp`.
    package var occurredAt: Int64
    /// The payload's `data`, as stored JSON text.
    package var data: String
    /// Where it stands.
    package var state: State
    /// Attempts made, over every run.
    package var attempts: Int
    /// ``attempts`` when the current run began (0, or the count at the last manual redelivery).
    package var runStartedAttempts: Int
    /// When a pending delivery is due (unix ms); nil once delivered or failed.
    package var nextAttemptAt: Int64?
    /// When the last attempt started (unix ms).
    package var lastAttemptAt: Int64?
    /// The last attempt's response status; nil when it got no response.
    package var lastStatus: Int?
    /// Why the last attempt failed; nil after a success.
    package var lastError: String?
    /// When a receiver acknowledged it (unix ms).
    package var deliveredAt: Int64?
    /// When it was enqueued (unix ms).
    package var createdAt: Int64

    /// Attempts made in the current run.
    package var runAttempts: Int { attempts - runStartedAttempts }
}

/// One attempt of a delivery.
package struct WebhookAttempt: Sendable, Equatable {
    /// 1 for the first attempt of the delivery, counting across runs.
    package var number: Int
    /// When it started (unix ms).
    package var startedAt: Int64
    /// How long it took (ms).
    package var durationMilliseconds: Int64
    /// The receiver's status; nil when there was no response.
    package var status: Int?
    /// Why it failed; nil for a 2xx.
    package var error: String?

    /// An attempt with these members.
    package init(number: Int, startedAt: Int64, durationMilliseconds: Int64, status: Int?, error: String?) {
        self.number = number
        self.startedAt = startedAt
        self.durationMilliseconds = durationMilliseconds
        self.status = status
        self.error = error
    }
}
