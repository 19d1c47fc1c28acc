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
        // This full decoder runs only for batches the scanner defers (a problem, or an unusual shape): building the
        // event's pointer up front costs nothing that the hot path pays.
        guard case .object(let object) = value else {
            problems.append(
                FieldProblem(
                    pointer: "/events/\(index)", code: "type.mismatch",
                    detail: "expected an event object, found \(value.kindName)"))
            return nil
        }
        var reader = RequestBodyReader(object, at: "/events/\(index)")
        reader.reportUnknown(allowed: members) { _ in
            "unknown member; allowed: \(members.sorted().joined(separator: ", "))"
        }
        let id = name(&reader, "id", required: true)
        let installID = name(&reader, "installId", required: true)
        let experiment = name(&reader, "experiment", required: false)
        let variant = name(&reader, "variant", required: false)
        if (experiment == nil) != (variant == nil), !reader.hasProblems {
            reader.report(
                experiment == nil ? "experiment" : "variant", "member.missing",
                "experiment and variant go together: give both or neither")
        }
        let type = reader["type"]?.stringValue.flatMap(AnalyticsEvent.init(rawValue:))
        if reader["type"] == nil {
            reader.report("type", "member.missing", "type is required")
        } else if type == nil {
            reader.report(
                "type", "value.invalid",
                "expected one of \(AnalyticsEvent.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let feature = readFeature(&reader)
        let occurredAt = readTime(&reader, now: now)
        let task = name(&reader, "task", required: false)
        if task != nil, let type, !type.isTaskEvent {
            reader.report(
                "task", "member.unexpected", "task names the task of taskStarted and taskCompleted events only")
        }
        problems += reader.problems
        guard !reader.hasProblems, let id, let installID, let type, let feature, let occurredAt else { return nil }
        return Event(
            id: id, installID: installID, type: type, feature: feature, experiment: experiment, variant: variant,
            occurredAt: occurredAt, task: task)
    }

    /// An id, install id, experiment key, variant or task: 1–``maxNameLength`` visible ASCII characters; null is
    /// absent.
    private static func name(_ reader: inout RequestBodyReader, _ member: String, required: Bool) -> String? {
        guard
            let text = reader.read(
                member, as: .string, missing: required ? "\(member) is required" : nil, nullIsAbsent: true)
        else { return nil }
        let utf8 = text.utf8
        guard !utf8.isEmpty, utf8.count <= maxNameLength, utf8.allSatisfy({ $0 >= 0x21 && $0 <= 0x7E }) else {
            reader.report(member, "value.invalid", "expected 1–\(maxNameLength) visible ASCII characters")
            return nil
        }
        return text
    }

    /// `feature`: a feature of the catalogue.
    private static func readFeature(_ reader: inout RequestBodyReader) -> Feature? {
        guard let value = reader["feature"] else {
            reader.report("feature", "member.missing", "feature is required")
            return nil
        }
        guard let feature = value.stringValue.flatMap(Feature.init(rawValue:)) else {
            reader.report(
                "feature", "feature.unknown",
                "\(value) is not a known feature; expected one of \(Feature.allCases.map(\.rawValue).joined(separator: ", "))"
            )
            return nil
        }
        return feature
    }

    /// `occurredAt`: RFC 3339 or integer milliseconds, after 2000 and at most a day ahead of `now`.
    private static func readTime(_ reader: inout RequestBodyReader, now: Int64) -> Int64? {
        var occurredAt: Int64?
        switch reader["occurredAt"] {
        case nil:
            reader.report(
                "occurredAt", "member.missing", "occurredAt is required (RFC 3339 or milliseconds since the epoch)")
        case .integer(let milliseconds)?:
            occurredAt = Int64(milliseconds)
        case .string(let text)?:
            occurredAt = EventTimestamp.parseRFC3339(text)
            if occurredAt == nil {
                reader.report(
                    "occurredAt", "value.invalid", "'\(text)' is not an RFC 3339 date-time such as 2026-11-22T12:30:00Z"
                )
            }
        case let other?:
            reader.report(
                "occurredAt", "type.mismatch",
                "expected an RFC 3339 string or integer milliseconds, found \(other.kindName)")
        }
        if let time = occurredAt, time < earliest || time > now + maxFutureSkew {
            reader.report(
                "occurredAt", "value.outOfRange",
                "the time must be after 2000-01-01 and at most one day ahead of the server")
            return nil
        }
        return occurredAt
    }
}
