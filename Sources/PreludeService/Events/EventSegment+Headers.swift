import PreludeCore
import PreludeHTTP

extension EventSegment {
    /// The device segment an events request declares in its ``EventSegment/osMajorHeader`` and
    /// ``EventSegment/localeHeader`` headers (docs/api.md, "Events"); each is optional.
    ///
    /// A header present with a value that does not parse is 400 `header.invalid` naming it (pointer
    /// `/headers/Prelude-Locale`), and nothing of the batch is stored: a value is never guessed or silently
    /// dropped. Surrounding whitespace is ignored (RFC 9110 §5.5); a repeated header must repeat the same value.
    package static func declared(by request: HTTPRequest) throws(ProblemDetails) -> EventSegment {
        var problems: [FieldProblem] = []
        func value<Value>(_ name: String, _ parse: (String) -> Value?, rule: String) -> Value? {
            let values = request.headers.values(for: name).map { $0.trimmingWhitespace() }
            guard let first = values.first else { return nil }
            guard values.allSatisfy({ $0 == first }), let parsed = parse(first) else {
                let shown = values.joined(separator: ", ").prefix(40)
                problems.append(
                    FieldProblem(
                        pointer: "/headers/" + name, code: "header.invalid",
                        detail: "\(name): '\(shown)' is not valid; \(rule)"))
                return nil
            }
            return parsed
        }
        let segment = EventSegment(
            osMajor: value(osMajorHeader, parseOSMajor, rule: osMajorRule),
            locale: value(localeHeader, parseLocale, rule: localeRule))
        guard problems.isEmpty else {
            throw PublicProblem.badRequest(
                problems, detail: "invalid device segment header\(problems.count == 1 ? "" : "s"); nothing was stored")
        }
        return segment
    }
}

extension EventBatch {
    /// Gives every event of the batch the `segment` its request declared (a batch's events share one device).
    package mutating func tag(with segment: EventSegment) {
        guard !segment.isEmpty else { return }
        for index in events.indices { events[index].segment = segment }
    }
}
