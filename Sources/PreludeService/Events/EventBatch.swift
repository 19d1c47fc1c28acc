import PreludeCore
import PreludeHTTP
import PreludeStore

/// A validated batch of client events for `POST /v1/apps/{app}/events`.
///
/// ```json
/// {"events": [{"id": "e-1", "installId": "8C1F…", "type": "primeShown", "feature": "camera",
///              "experiment": "camera-prime-copy", "variant": "short-copy", "occurredAt": "2026-11-22T12:30:00Z"}]}
/// ```
/// The batch is checked as a whole: every problem of every event is reported with its pointer
/// (`/events/3/type`), and a batch with any problem is refused entirely.
package struct EventBatch: Sendable {
    /// One valid event, not yet stored (the store's type: what ``EventIngestor`` writes).
    package typealias Event = IncomingEvent

    /// The most events in one batch.
    package static let maxEvents = 500
    /// The largest request body (about 500 events of 500 bytes).
    package static let maxBodySize = 256 << 10
    /// The longest id, install id, experiment key or variant name.
    package static let maxNameLength = 128
    /// Earliest accepted event time: 2000-01-01T00:00:00Z.
    package static let earliest: Int64 = 946_684_800_000
    /// How far in the future (device clock skew) an event time may be: one day.
    package static let maxFutureSkew: Int64 = 86_400_000

    /// The events, in the order sent.
    package var events: [Event]

    /// Parses and validates a request body; `now` (milliseconds since the epoch) bounds event times.
    ///
    /// Throws 400 when the body is not JSON or not `{"events": [...]}`, 422 listing every problem otherwise.
    ///
    /// With `document` (the live policy), events naming an experiment it does not define are problems too, reported
    /// together with every other problem of the batch (``problems(of:at:against:)``).
    package static func decode(_ body: [UInt8], now: Int64, against document: PolicyDocument? = nil)
        throws(ProblemDetails) -> EventBatch
    {
        if let events = EventBatchScanner.scan(body, now: now) {
            let batch = EventBatch(events: events)
            if let document {
                let problems = batch.problems(against: document)
                guard problems.isEmpty else { throw PublicProblem.unprocessable(problems) }
            }
            return batch
        }
        return try decodeInFull(body, now: now, against: document)
    }

    /// The full decoder: a `JSONValue` tree, then every member of every event checked, every problem named.
    /// ``EventBatchScanner`` handles plain valid batches faster and defers to this for anything else.
    static func decodeInFull(_ body: [UInt8], now: Int64, against document: PolicyDocument? = nil)
        throws(ProblemDetails) -> EventBatch
    {
        let root = try PublicProblem.jsonObject(body, expected: "expected an object {\"events\": [...]}")
        var problems: [FieldProblem] = []
        for key in root.keys where key != "events" {
            problems.append(
                FieldProblem(pointer: "/" + key, code: "member.unknown", detail: "only \"events\" is allowed"))
        }
        guard case .array(let list) = root["events"] ?? .null else {
            problems.append(
                FieldProblem(
                    pointer: "/events", code: root["events"] == nil ? "member.missing" : "type.mismatch",
                    detail: "expected an array of 1–\(maxEvents) events"))
            throw PublicProblem.badRequest(problems)
        }
        if list.isEmpty || list.count > maxEvents {
            problems.append(
                FieldProblem(
                    pointer: "/events", code: "events.count",
                    detail: "a batch holds 1–\(maxEvents) events; this one has \(list.count)"))
            throw PublicProblem.unprocessable(problems)
        }
        var events: [Event] = []
        events.reserveCapacity(list.count)
        for (index, value) in list.enumerated() {
            if let event = decodeEvent(value, at: index, now: now, problems: &problems) {
                events.append(event)
                if let document { problems += Self.problems(of: event, at: index, against: document) }
            }
        }
        guard problems.isEmpty else { throw PublicProblem.unprocessable(problems) }
        return EventBatch(events: events)
    }

    private static let members: Set<String> = [
        "id", "installId", "type", "feature", "experiment", "variant", "occurredAt", "task",
    ]

    private static func decodeEvent(_ value: JSONValue, at index: Int, now: Int64, problems: inout [FieldProblem])
        -> Event?
    {
        // The pointer is built only for a problem: valid events (nearly all) skip a string interpolation each.
        var pointer: String { "/events/\(index)" }
        guard case .object(let object) = value else {
            problems.append(
                FieldProblem(
                    pointer: pointer, code: "type.mismatch", detail: "expected an event object, found \(value.kindName)"
                ))
            return nil
        }
        let before = problems.count
        func report(_ member: String, _ code: String, _ detail: String) {
            problems.append(
                FieldProblem(pointer: pointer + "/" + JSONPointer.escape(member), code: code, detail: detail))
        }
        for key in object.keys where !members.contains(key) {
            report(key, "member.unknown", "unknown member; allowed: \(members.sorted().joined(separator: ", "))")
        }
        func name(_ member: String, required: Bool) -> String? {
            guard let value = object[member], !value.isNull else {
                if required { report(member, "member.missing", "\(member) is required") }
                return nil
            }
            guard let text = value.stringValue else {
                report(member, "type.mismatch", "expected a string, found \(value.kindName)")
                return nil
            }
            let utf8 = text.utf8
            guard !utf8.isEmpty, utf8.count <= maxNameLength, utf8.allSatisfy({ $0 >= 0x21 && $0 <= 0x7E }) else {
                report(member, "value.invalid", "expected 1–\(maxNameLength) visible ASCII characters")
                return nil
            }
            return text
        }
        let id = name("id", required: true)
        let installID = name("installId", required: true)
        let experiment = name("experiment", required: false)
        let variant = name("variant", required: false)
        if (experiment == nil) != (variant == nil), problems.count == before {
            report(
                experiment == nil ? "experiment" : "variant", "member.missing",
                "experiment and variant go together: give both or neither")
        }

        var type: AnalyticsEvent?
        if let value = object["type"] {
            if let text = value.stringValue, let parsed = AnalyticsEvent(rawValue: text) {
                type = parsed
            } else {
                report(
                    "type", "value.invalid",
                    "expected one of \(AnalyticsEvent.allCases.map(\.rawValue).joined(separator: ", "))")
            }
        } else {
            report("type", "member.missing", "type is required")
        }

        var feature: Feature?
        if let value = object["feature"] {
            if let text = value.stringValue, let parsed = Feature(rawValue: text) {
                feature = parsed
            } else {
                report(
                    "feature", "feature.unknown",
                    "\(value) is not a known feature; expected one of \(Feature.allCases.map(\.rawValue).joined(separator: ", "))"
                )
            }
        } else {
            report("feature", "member.missing", "feature is required")
        }

        var occurredAt: Int64?
        switch object["occurredAt"] {
        case nil:
            report("occurredAt", "member.missing", "occurredAt is required (RFC 3339 or milliseconds since the epoch)")
        case .integer(let milliseconds)?:
            occurredAt = Int64(milliseconds)
        case .string(let text)?:
            occurredAt = EventTimestamp.parseRFC3339(text)
            if occurredAt == nil {
                report(
                    "occurredAt", "value.invalid", "'\(text)' is not an RFC 3339 date-time such as 2026-11-22T12:30:00Z"
                )
            }
        case let other?:
            report(
                "occurredAt", "type.mismatch",
                "expected an RFC 3339 string or integer milliseconds, found \(other.kindName)")
        }
        if let time = occurredAt, time < earliest || time > now + maxFutureSkew {
            report(
                "occurredAt", "value.outOfRange",
                "the time must be after 2000-01-01 and at most one day ahead of the server")
            occurredAt = nil
        }

        let task = name("task", required: false)
        if task != nil, let type, !type.isTaskEvent {
            report("task", "member.unexpected", "task names the task of taskStarted and taskCompleted events only")
        }

        guard problems.count == before, let id, let installID, let type, let feature, let occurredAt else { return nil }
        return Event(
            id: id, installID: installID, type: type, feature: feature, experiment: experiment, variant: variant,
            occurredAt: occurredAt, task: task)
    }
}
