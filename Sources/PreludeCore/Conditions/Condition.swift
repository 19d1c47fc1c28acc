/// A condition on the attributes a client sends: GrowthBook's condition language (docs/policy.md, "Conditions"),
/// compiled once when the policy is read and evaluated without allocating per call.
///
/// Keys are attribute paths (dotted paths walk nested objects; a flat attribute whose name has dots, such as
/// `prelude.launchCount`, is found first) or the logical operators `$and $or $nor $not`, plus Prelude's
/// `$inSegment` naming a saved segment. Values are literals (equality as GrowthBook's reference SDK defines it) or
/// operator objects: `$eq $ne $gt $gte $lt $lte $in $nin $ini $nini $exists $type $regex $regexi $elemMatch $size
/// $all $alli $not` and the version operators `$veq $vne $vgt $vgte $vlt $vlte`.
///
/// A part the validator refuses (an unknown operator, a `$regex` outside ``SafeRegex``'s subset, an unknown
/// segment) never matches, as in GrowthBook: a stored policy read by a later build stays servable.
public struct Condition: Sendable, Hashable {
    /// The condition as written.
    public let source: JSONValue
    let root: ConditionNode
    /// The attribute paths the condition reads, segments included (what a resolution cache must key on).
    public let attributesRead: Set<String>
    /// The segments named by `$inSegment`, directly.
    public let segmentsNamed: Set<String>

    /// A condition that always matches (`{}`).
    public static let always = Condition(source: .object(JSONObject()), root: .all([]), read: [], segments: [])

    init(source: JSONValue, root: ConditionNode, read: Set<String>, segments: Set<String>) {
        self.source = source
        self.root = root
        attributesRead = read
        segmentsNamed = segments
    }

    /// Compiles `source`, resolving `$inSegment` through `segments` (already compiled ones; a name it lacks never
    /// matches and is reported).
    ///
    /// - Returns: the condition and every problem found, pointers relative to `source`.
    public static func compile(_ source: JSONValue, segments: [String: Condition] = [:]) -> (
        Condition, [ValidationProblem]
    ) {
        var compiler = ConditionCompiler(segments: segments)
        let root = compiler.compileCondition(source, at: .root, depth: 0)
        return (
            Condition(source: source, root: root, read: compiler.read, segments: compiler.segmentsNamed),
            compiler.problems
        )
    }

    /// Whether the attributes match.
    public func matches(_ attributes: [String: JSONValue]) -> Bool {
        root.evaluate(.attributes(attributes))
    }

    /// Whether the client matches: its attributes and its moments (`prelude.moment.<name>.count`).
    public func matches(_ context: ClientContext) -> Bool {
        root.evaluate(.client(context.attributes.values, context.moments))
    }

    /// Whether a JSON value (an object of attributes, as GrowthBook's `evalCondition` takes) matches.
    public func matches(_ value: JSONValue) -> Bool {
        root.evaluate(.value(value))
    }

    /// Two conditions are equal when written the same.
    public static func == (lhs: Condition, rhs: Condition) -> Bool { lhs.source == rhs.source }

    /// Hashes the source.
    public func hash(into hasher: inout Hasher) { hasher.combine(source) }
}

/// What a path is looked up in: the client's attributes, or a value (an `$elemMatch` element, a test's object).
enum ConditionRoot {
    case attributes([String: JSONValue])
    case value(JSONValue)
    /// A client's attributes and moments (not the whole context: cheaper to carry).
    case client([String: JSONValue], [String: MomentRecord])

    func lookup(_ path: AttributePath) -> JSONValue {
        switch self {
        case .client(let attributes, let moments):
            if let value = attributes[path.whole] { return value }
            if let (name, field) = path.moment, let record = moments[String(name)], let value = record.value(of: field)
            {
                return value
            }
            return .null
        case .attributes(let attributes):
            if let value = attributes[path.whole] { return value }
            guard path.parts.count > 1, let first = attributes[path.parts[0]] else { return .null }
            return Self.walk(first, path.parts.dropFirst())
        case .value(let value):
            return Self.walk(value, path.parts[...])
        }
    }

    private static func walk(_ start: JSONValue, _ parts: ArraySlice<String>) -> JSONValue {
        var current = start
        for part in parts {
            guard case .object(let object) = current, let next = object[part] else { return .null }
            current = next
        }
        return current
    }
}

/// A dotted attribute path, split once.
struct AttributePath: Sendable {
    let whole: String
    let parts: [String]
    /// For `prelude.moment.<name>.<field>`, the name and the field.
    let moment: (name: Substring, field: Substring)?

    init(_ whole: String) {
        self.whole = whole
        parts = whole.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let prefix = "prelude.moment."
        if whole.hasPrefix(prefix), let dot = whole.lastIndex(of: "."),
            dot > whole.index(whole.startIndex, offsetBy: prefix.count)
        {
            moment = (
                whole[whole.index(whole.startIndex, offsetBy: prefix.count)..<dot], whole[whole.index(after: dot)...]
            )
        } else {
            moment = nil
        }
    }
}

/// A compiled condition (GrowthBook's `evalCondition`).
indirect enum ConditionNode: Sendable {
    case all([ConditionNode])
    /// `$or`: true when empty.
    case any([ConditionNode])
    case none([ConditionNode])
    case not(ConditionNode)
    case field(AttributePath, ValueTest)
    case never

    func evaluate(_ root: ConditionRoot) -> Bool {
        switch self {
        case .all(let nodes):
            for node in nodes where !node.evaluate(root) { return false }
            return true
        case .any(let nodes):
            if nodes.isEmpty { return true }
            for node in nodes where node.evaluate(root) { return true }
            return false
        case .none(let nodes):
            for node in nodes where node.evaluate(root) { return false }
            return true
        case .not(let node): return !node.evaluate(root)
        case .field(let path, let test): return test.evaluate(root.lookup(path))
        case .never: return false
        }
    }
}

/// A compiled condition value (GrowthBook's `evalConditionValue`).
indirect enum ValueTest: Sendable {
    /// A string literal: `String(value) === literal` (lowercased both sides when insensitive, for `$alli`).
    case equalsString(String, insensitive: Bool)
    /// A number literal: `value * 1 === literal`.
    case equalsNumber(Double)
    /// A boolean literal: `value !== null && !!value === literal`.
    case equalsBool(Bool)
    /// `null`: the value is null or missing.
    case isNull
    /// An array or a non-operator object: `JSON.stringify` equality.
    case serializedEquals(JSONValue)
    /// An operator object: every operator holds.
    case operators([ConditionOperator])

    func evaluate(_ value: JSONValue) -> Bool {
        switch self {
        case .equalsString(let literal, let insensitive):
            if !insensitive, case .string(let text) = value { return text == literal }
            let text = JavaScriptValue.string(value)
            return insensitive ? text.lowercased() == literal.lowercased() : text == literal
        case .equalsNumber(let literal):
            switch value {
            case .integer(let number): return Double(number) == literal
            case .double(let number): return number == literal
            default: return JavaScriptValue.number(value) == literal
            }
        case .equalsBool(let literal):
            return !value.isNull && JavaScriptValue.isTruthy(value) == literal
        case .isNull:
            return value.isNull
        case .serializedEquals(let literal):
            return JavaScriptValue.serializedEquals(value, literal)
        case .operators(let operators):
            for item in operators where !item.evaluate(value) { return false }
            return true
        }
    }
}

/// One operator of an operator object (GrowthBook's `evalOperatorCondition`).
indirect enum ConditionOperator: Sendable {
    /// `$veq … $vlte` against the expected version's padded string.
    case version(VersionComparison, String)
    case strictEquals(JSONValue, negated: Bool)
    /// `$lt $lte` (`less`) and `$gt $gte` (the operands swapped).
    case less(JSONValue, orEqual: Bool, swapped: Bool)
    case exists(Bool)
    case isIn([JSONValue], insensitive: Bool, negated: Bool)
    case not(ValueTest)
    case size(ValueTest)
    case elemMatchValue(ValueTest)
    case elemMatchCondition(ConditionNode)
    case all([ValueTest])
    case regex(SafeRegex)
    case type(String)
    case never

    enum VersionComparison: Sendable {
        case equal, notEqual, greater, greaterOrEqual, less, lessOrEqual
    }

    func evaluate(_ actual: JSONValue) -> Bool {
        switch self {
        case .version(let comparison, let expected):
            let order = JavaScriptValue.compareUTF16(JavaScriptValue.paddedVersion(actual), expected)
            switch comparison {
            case .equal: return order == 0
            case .notEqual: return order != 0
            case .greater: return order > 0
            case .greaterOrEqual: return order >= 0
            case .less: return order < 0
            case .lessOrEqual: return order <= 0
            }
        case .strictEquals(let expected, let negated):
            return JavaScriptValue.strictEquals(actual, expected) != negated
        case .less(let expected, let orEqual, let swapped):
            if case .integer(let a) = actual, case .integer(let b) = expected {
                let (x, y) = swapped ? (b, a) : (a, b)
                return orEqual ? x <= y : x < y
            }
            return swapped
                ? JavaScriptValue.isLess(expected, actual, orEqual: orEqual)
                : JavaScriptValue.isLess(actual, expected, orEqual: orEqual)
        case .exists(let expected):
            return actual.isNull != expected
        case .isIn(let expected, let insensitive, let negated):
            return Self.isIn(actual, expected, insensitive: insensitive) != negated
        case .not(let test):
            return !test.evaluate(actual)
        case .size(let test):
            guard case .array(let elements) = actual else { return false }
            return test.evaluate(.integer(elements.count))
        case .elemMatchValue(let test):
            guard case .array(let elements) = actual else { return false }
            return elements.contains { JavaScriptValue.isTruthy($0) && test.evaluate($0) }
        case .elemMatchCondition(let node):
            guard case .array(let elements) = actual else { return false }
            return elements.contains { JavaScriptValue.isTruthy($0) && node.evaluate(.value($0)) }
        case .all(let tests):
            guard case .array(let elements) = actual else { return false }
            return tests.allSatisfy { test in elements.contains { test.evaluate($0) } }
        case .regex(let regex):
            if case .string(let text) = actual { return regex.matches(text) }
            return regex.matches(JavaScriptValue.string(actual))
        case .type(let expected):
            return Self.typeName(actual) == expected
        case .never:
            return false
        }
    }

    /// GrowthBook's `isIn`: an array attribute matches when any element is in the list.
    private static func isIn(_ actual: JSONValue, _ expected: [JSONValue], insensitive: Bool) -> Bool {
        func equal(_ a: JSONValue, _ b: JSONValue) -> Bool {
            if insensitive, case .string(let x) = a, case .string(let y) = b { return x.lowercased() == y.lowercased() }
            return JavaScriptValue.strictEquals(a, b)
        }
        if case .array(let elements) = actual {
            return elements.contains { element in expected.contains { equal(element, $0) } }
        }
        return expected.contains { equal(actual, $0) }
    }

    /// GrowthBook's `getType`.
    static func typeName(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .array: "array"
        case .bool: "boolean"
        case .integer, .double: "number"
        case .string: "string"
        case .object: "object"
        }
    }
}
