/// The attributes an app sends about its user and device (`sessionCount`, `plan`, `prelude.launchCount`), which
/// conditions read: at most ``maximumCount``, names `[a-zA-Z][a-zA-Z0-9_.]*` of at most ``maximumNameLength``
/// characters, values strings (at most ``maximumStringLength`` characters), finite numbers or booleans. Versions and
/// dates are sent as strings (``AttributeValue/version(_:)``, ``AttributeValue/date(_:)``), which the version
/// operators and string comparisons read.
///
/// Attributes change what a client is served; they are never stored with events and never logged.
public struct ClientAttributes: Sendable, Hashable {
    /// The most attributes one client sends.
    public static let maximumCount = 64
    /// The longest attribute name.
    public static let maximumNameLength = 64
    /// The longest string value, in Unicode scalars.
    public static let maximumStringLength = 256

    /// The attributes as condition values.
    public private(set) var values: [String: JSONValue] = [:]

    /// No attributes.
    public init() {}

    /// Whether there are none.
    public var isEmpty: Bool { values.isEmpty }

    /// The number of attributes.
    public var count: Int { values.count }

    /// The attribute named `name`.
    public subscript(name: String) -> AttributeValue? { values[name].flatMap(AttributeValue.init) }

    /// Sets (or, with nil, removes) an attribute.
    ///
    /// - Throws: ``AttributeError`` for a name outside the pattern, a value out of bounds, or a 65th attribute;
    ///   nothing changes then.
    public mutating func set(_ name: String, to value: AttributeValue?) throws(AttributeError) {
        guard ConditionCompiler.isAttributeName(name) else { throw .invalidName(name) }
        guard let value else {
            values[name] = nil
            return
        }
        if values[name] == nil, values.count >= Self.maximumCount { throw .tooMany }
        values[name] = try value.validatedJSON(name: name)
    }

    /// Reads attributes from a JSON object (decide's and OFREP's `attributes`, or the query's decoded pairs).
    ///
    /// - Throws: the first ``AttributeError`` in member order.
    public static func decode(_ object: JSONObject) throws(AttributeError) -> ClientAttributes {
        var attributes = ClientAttributes()
        guard object.count <= maximumCount else { throw .tooMany }
        for (name, member) in object.members {
            guard let value = AttributeValue(member) else { throw .invalidValue(name) }
            try attributes.set(name, to: value)
        }
        return attributes
    }

    /// `{name: value}` in name order.
    public var jsonValue: JSONValue {
        var object = JSONObject()
        for name in values.keys.sorted() { object[name] = values[name] }
        return .object(object)
    }
}

/// One attribute's value.
public enum AttributeValue: Sendable, Hashable {
    /// A string.
    case string(String)
    /// A finite number.
    case number(Double)
    /// A boolean.
    case bool(Bool)

    /// A version, sent as its text for the version operators (`$vgte`).
    public static func version(_ version: SemanticVersion) -> AttributeValue { .string(version.description) }

    /// An instant, sent as RFC 3339 text in UTC with milliseconds (strings in that form sort by time).
    public static func date(_ instant: Instant) -> AttributeValue {
        .string(RFC3339.string(milliseconds: Int64((instant.secondsSinceEpoch * 1000).rounded(.down))))
    }

    /// A whole number.
    public static func integer(_ value: Int) -> AttributeValue { .number(Double(value)) }

    /// The value of a JSON string, number or boolean; nil for anything else.
    public init?(_ json: JSONValue) {
        switch json {
        case .string(let text): self = .string(text)
        case .integer(let number): self = .number(Double(number))
        case .double(let number): self = .number(number)
        case .bool(let flag): self = .bool(flag)
        default: return nil
        }
    }

    func validatedJSON(name: String) throws(AttributeError) -> JSONValue {
        switch self {
        case .string(let text):
            guard text.unicodeScalars.count <= ClientAttributes.maximumStringLength else {
                throw .invalidValue(name)
            }
            return .string(text)
        case .number(let number):
            guard number.isFinite else { throw .invalidValue(name) }
            return .number(number)
        case .bool(let flag): return .bool(flag)
        }
    }
}

/// Why an attribute is refused.
public enum AttributeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The name is outside `[a-zA-Z][a-zA-Z0-9_.]*` or too long.
    case invalidName(String)
    /// The value is not a string (of at most 256 characters), a finite number or a boolean.
    case invalidValue(String)
    /// More than 64 attributes.
    case tooMany

    /// A sentence naming the attribute.
    public var description: String {
        switch self {
        case .invalidName(let name):
            "The attribute name \"\(name)\" is invalid: letters, digits, \"_\" and \".\", starting with a letter, "
                + "at most \(ClientAttributes.maximumNameLength) characters."
        case .invalidValue(let name):
            "The attribute \"\(name)\" must be a string of at most \(ClientAttributes.maximumStringLength) "
                + "characters, a finite number or a boolean."
        case .tooMany: "At most \(ClientAttributes.maximumCount) attributes may be sent."
        }
    }
}
