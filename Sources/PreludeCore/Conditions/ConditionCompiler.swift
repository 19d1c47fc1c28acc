/// Compiles a condition's JSON into ``ConditionNode``s, reporting what the validator refuses on a new write while
/// still compiling it the way GrowthBook evaluates it (a refused part never matches).
struct ConditionCompiler {
    /// The operators of an operator object.
    static let valueOperators: Set<String> = [
        "$eq", "$ne", "$gt", "$gte", "$lt", "$lte", "$in", "$nin", "$ini", "$nini", "$exists", "$type", "$regex",
        "$regexi", "$elemMatch", "$size", "$all", "$alli", "$not", "$veq", "$vne", "$vgt", "$vgte", "$vlt", "$vlte",
    ]
    /// What `$type` can name.
    static let typeNames: Set<String> = ["string", "number", "boolean", "object", "array", "null"]
    /// Deeper nesting is refused (and never matches): it can only be a mistake or an attack on the stack.
    static let maximumDepth = 32

    let segments: [String: Condition]
    var problems: [ValidationProblem] = []
    var read: Set<String> = []
    var segmentsNamed: Set<String> = []

    init(segments: [String: Condition]) { self.segments = segments }

    private mutating func report(_ pointer: JSONPointer, _ message: String) {
        problems.append(ValidationProblem(pointer, .invalidCondition, message))
    }

    /// A condition object (top level, `$and`/`$or`/`$nor`/`$not` members, `$elemMatch` on objects).
    mutating func compileCondition(_ value: JSONValue, at pointer: JSONPointer, depth: Int) -> ConditionNode {
        guard depth <= Self.maximumDepth else {
            report(pointer, "Conditions nest more than \(Self.maximumDepth) deep.")
            return .never
        }
        guard case .object(let object) = value else {
            report(pointer, "Expected a condition object, found \(value.kindName).")
            return .never
        }
        var nodes: [ConditionNode] = []
        nodes.reserveCapacity(object.count)
        for (key, member) in object.members {
            let at = pointer.appending(key)
            switch key {
            case "$or", "$nor", "$and":
                guard case .array(let list) = member else {
                    report(at, "\(key) takes an array of conditions, found \(member.kindName).")
                    nodes.append(.never)
                    continue
                }
                let children = list.enumerated().map { index, child in
                    compileCondition(child, at: at.appending(index), depth: depth + 1)
                }
                nodes.append(key == "$or" ? .any(children) : key == "$nor" ? .none(children) : .all(children))
            case "$not":
                nodes.append(.not(compileCondition(member, at: at, depth: depth + 1)))
            case "$inSegment":
                nodes.append(compileSegment(member, at: at))
            default:
                if key.hasPrefix("$") && (Self.valueOperators.contains(key) || !Self.isAttributeName(key)) {
                    report(
                        at,
                        "\"\(key)\" is not an operator at this level; expected an attribute name or $and, "
                            + "$or, $nor, $not, $inSegment.")
                } else if !Self.isAttributeName(key) {
                    report(
                        at,
                        "\"\(key)\" is not an attribute name: letters, digits, \"_\" and \".\", "
                            + "starting with a letter.")
                }
                read.insert(key)
                nodes.append(.field(AttributePath(key), compileValue(member, at: at, depth: depth + 1)))
            }
        }
        return nodes.count == 1 ? nodes[0] : .all(nodes)
    }

    private mutating func compileSegment(_ member: JSONValue, at pointer: JSONPointer) -> ConditionNode {
        guard case .string(let name) = member else {
            report(pointer, "$inSegment takes a segment's name, found \(member.kindName).")
            return .never
        }
        segmentsNamed.insert(name)
        guard let segment = segments[name] else {
            let suggestion = TypoSuggestion.closest(to: name, among: segments.keys.sorted())
            report(
                pointer,
                "No segment is named \"\(name)\"" + (suggestion.map { " (did you mean \"\($0)\"?)" } ?? "") + ".")
            return .never
        }
        read.formUnion(segment.attributesRead)
        return segment.root
    }

    /// A condition value: a literal or an operator object.
    mutating func compileValue(_ value: JSONValue, at pointer: JSONPointer, depth: Int) -> ValueTest {
        guard depth <= Self.maximumDepth else {
            report(pointer, "Conditions nest more than \(Self.maximumDepth) deep.")
            return .operators([.never])
        }
        switch value {
        case .string(let text): return .equalsString(text, insensitive: false)
        case .integer, .double: return .equalsNumber(JavaScriptValue.number(value))
        case .bool(let flag): return .equalsBool(flag)
        case .null: return .isNull
        case .array: return .serializedEquals(value)
        case .object(let object):
            guard Self.isOperatorObject(object) else { return .serializedEquals(value) }
            var operators: [ConditionOperator] = []
            for (key, operand) in object.members {
                operators.append(compileOperator(key, operand, at: pointer.appending(key), depth: depth))
            }
            return .operators(operators)
        }
    }

    /// GrowthBook's `isOperatorObject`: a non-empty object whose every key starts with `$`.
    static func isOperatorObject(_ object: JSONObject) -> Bool {
        !object.isEmpty && object.keys.allSatisfy { $0.hasPrefix("$") }
    }

    private mutating func compileOperator(_ key: String, _ operand: JSONValue, at pointer: JSONPointer, depth: Int)
        -> ConditionOperator
    {
        switch key {
        case "$veq", "$vne", "$vgt", "$vgte", "$vlt", "$vlte":
            if operand.stringValue == nil {
                report(pointer, "\(key) takes a version string, found \(operand.kindName).")
            }
            let comparison: ConditionOperator.VersionComparison =
                switch key {
                case "$veq": .equal
                case "$vne": .notEqual
                case "$vgt": .greater
                case "$vgte": .greaterOrEqual
                case "$vlt": .less
                default: .lessOrEqual
                }
            return .version(comparison, JavaScriptValue.paddedVersion(operand))
        case "$eq", "$ne":
            requireScalar(operand, key, at: pointer)
            return .strictEquals(operand, negated: key == "$ne")
        case "$lt", "$lte", "$gt", "$gte":
            requireScalar(operand, key, at: pointer)
            return .less(operand, orEqual: key.hasSuffix("e"), swapped: key.hasPrefix("$g"))
        case "$exists":
            if operand.boolValue == nil { report(pointer, "$exists takes true or false, found \(operand.kindName).") }
            return .exists(JavaScriptValue.isTruthy(operand))
        case "$in", "$nin", "$ini", "$nini":
            guard case .array(let list) = operand else {
                report(pointer, "\(key) takes an array, found \(operand.kindName).")
                return .never
            }
            return .isIn(list, insensitive: key.hasSuffix("i"), negated: key.hasPrefix("$n"))
        case "$not":
            return .not(compileValue(operand, at: pointer, depth: depth + 1))
        case "$size":
            return .size(compileValue(operand, at: pointer, depth: depth + 1))
        case "$elemMatch":
            if case .object(let object) = operand, Self.isOperatorObject(object) {
                return .elemMatchValue(compileValue(operand, at: pointer, depth: depth + 1))
            }
            // A condition over each element's members: its paths are not attributes of the client.
            var inner = ConditionCompiler(segments: segments)
            let node = inner.compileCondition(operand, at: pointer, depth: depth + 1)
            problems += inner.problems.filter { !$0.message.contains("is not an attribute name") }
            return .elemMatchCondition(node)
        case "$all", "$alli":
            guard case .array(let list) = operand else {
                report(pointer, "\(key) takes an array, found \(operand.kindName).")
                return .never
            }
            let insensitive = key == "$alli"
            return .all(
                list.enumerated().map { index, item in
                    if insensitive, case .string(let text) = item { return .equalsString(text, insensitive: true) }
                    return compileValue(item, at: pointer.appending(index), depth: depth + 1)
                })
        case "$regex", "$regexi":
            guard case .string(let pattern) = operand else {
                report(pointer, "\(key) takes a pattern string, found \(operand.kindName).")
                return .never
            }
            do {
                return .regex(try SafeRegex(pattern, caseInsensitive: key == "$regexi"))
            } catch {
                report(pointer, "The pattern is refused at character \(error.offset + 1): \(error.message)")
                return .never
            }
        case "$type":
            guard let name = operand.stringValue, Self.typeNames.contains(name) else {
                report(pointer, "$type takes one of \(Self.typeNames.sorted().joined(separator: ", ")).")
                return .type(operand.stringValue ?? "")
            }
            return .type(name)
        default:
            let suggestion = TypoSuggestion.closest(to: key, among: Self.valueOperators.sorted())
            report(
                pointer, "Unknown operator \"\(key)\"" + (suggestion.map { " (did you mean \"\($0)\"?)" } ?? "") + ".")
            return .never
        }
    }

    private mutating func requireScalar(_ operand: JSONValue, _ key: String, at pointer: JSONPointer) {
        switch operand {
        case .array, .object:
            report(pointer, "\(key) takes a string, number, boolean or null, found \(operand.kindName).")
        default: break
        }
    }

    /// `[a-zA-Z][a-zA-Z0-9_.]*`, at most ``ClientAttributes/maximumNameLength`` characters.
    static func isAttributeName(_ name: String) -> Bool {
        let bytes = name.utf8
        guard let first = bytes.first, bytes.count <= ClientAttributes.maximumNameLength,
            (65...90).contains(first) || (97...122).contains(first)
        else { return false }
        return bytes.allSatisfy {
            (65...90).contains($0) || (97...122).contains($0) || (48...57).contains($0) || $0 == 95 || $0 == 46
        }
    }
}
