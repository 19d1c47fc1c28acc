/// What a client recorded of one moment its app reports (`client.moment("orderPlaced")`): how often, first and last.
///
/// Conditions read it as the attributes `prelude.moment.<name>.count` (a number) and `prelude.moment.<name>.first`,
/// `.last` (RFC 3339 strings); an `ask` rule's `{"after": {"moment": name, "atLeast": n}}` reads the count.
public struct MomentRecord: Sendable, Hashable {
    /// The most moment names one client sends.
    public static let maximumCount = 32
    /// The largest count accepted.
    public static let maximumOccurrences = 1_000_000_000

    /// How many times the moment happened.
    public var count: Int
    /// The first time, when known.
    public var first: Instant?
    /// The last time, when known.
    public var last: Instant?

    /// A record.
    public init(count: Int, first: Instant? = nil, last: Instant? = nil) {
        self.count = count
        self.first = first
        self.last = last
    }

    /// The condition value of `field` (`count`, `first` or `last`).
    func value(of field: Substring) -> JSONValue? {
        switch field {
        case "count": return .integer(count)
        case "first": return first.map(Self.text)
        case "last": return last.map(Self.text)
        default: return nil
        }
    }

    private static func text(_ instant: Instant) -> JSONValue {
        if case .string(let text) = AttributeValue.date(instant) { return .string(text) }
        return .null
    }

    /// `{"count", "first"?, "last"?}` with RFC 3339 instants.
    public var jsonValue: JSONValue {
        var object = JSONObject()
        object["count"] = .integer(count)
        if let first { object["first"] = Self.text(first) }
        if let last { object["last"] = Self.text(last) }
        return .object(object)
    }

    /// Reads the `moments` object of a decide or OFREP body: names as attribute names, each `{"count": n}` with
    /// optional `first` and `last` RFC 3339 instants.
    ///
    /// - Throws: a sentence naming the moment at fault.
    public static func decodeAll(_ object: JSONObject) throws(MomentError) -> [String: MomentRecord] {
        guard object.count <= maximumCount else { throw MomentError(message: "At most \(maximumCount) moments.") }
        var result: [String: MomentRecord] = [:]
        for (name, value) in object.members {
            guard ConditionCompiler.isAttributeName(name) else {
                throw MomentError(message: "\"\(name)\" is not a moment name: letters, digits, \"_\" and \".\".")
            }
            guard case .object(let body) = value, let count = body["count"]?.intValue,
                (0...maximumOccurrences).contains(count)
            else {
                throw MomentError(
                    message: "The moment \"\(name)\" needs a count from 0 to \(maximumOccurrences).")
            }
            var record = MomentRecord(count: count)
            for (key, member) in body.members where key != "count" {
                guard key == "first" || key == "last", let text = member.stringValue,
                    let milliseconds = RFC3339.milliseconds(text)
                else {
                    throw MomentError(
                        message: "The moment \"\(name)\" has \"\(key)\"; only count and the RFC 3339 instants first "
                            + "and last are allowed.")
                }
                let instant = Instant(secondsSinceEpoch: Double(milliseconds) / 1000)
                if key == "first" { record.first = instant } else { record.last = instant }
            }
            result[name] = record
        }
        return result
    }
}

/// Why a `moments` object is refused.
public struct MomentError: Error, Sendable, Hashable {
    /// What is wrong.
    public let message: String
}
