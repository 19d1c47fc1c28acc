import PreludeCore
import PreludeStore

/// The body of a delivery, as Standard Webhooks recommends: `{"type", "timestamp", "data"}` — the event type, when
/// the event happened (ISO 8601 UTC) and its data as stored in the outbox. The same bytes on every attempt.
package enum WebhookMessage {
    /// The JSON body of `delivery`.
    package static func body(_ delivery: WebhookDelivery) -> [UInt8] {
        jsonValue(delivery).serializedBytes()
    }

    /// The body as a value (the admin API shows it as the delivery's `payload`).
    package static func jsonValue(_ delivery: WebhookDelivery) -> JSONValue {
        .object(
            JSONObject([
                ("type", .string(delivery.eventType)), ("timestamp", .string(AdminTime.iso8601(delivery.occurredAt))),
                ("data", (try? JSONValue(parsing: delivery.data)) ?? .null),
            ]))
    }
}
