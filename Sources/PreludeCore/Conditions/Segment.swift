/// A named condition of the policy's top-level `segments` (`"engaged": {"sessionCount": {"$gte": 3}}`), which
/// targeting rules and `ask` rules reuse with `{"$inSegment": "engaged"}`.
public struct Segment: Sendable, Hashable {
    /// The name, unique in the document.
    public var name: String
    /// What a client must match to be in the segment.
    public var condition: Condition

    /// A segment.
    public init(name: String, condition: Condition) {
        self.name = name
        self.condition = condition
    }

    /// Compiles the `segments` object of a document: each segment after the ones it names, so `$inSegment` finds
    /// them compiled. A segment that names itself through others (a cycle) is reported and its reference to the
    /// cycle never matches.
    ///
    /// - Returns: the segments in document order and every problem, pointers under `pointer`.
    static func compileAll(_ object: JSONObject, at pointer: JSONPointer) -> ([Segment], [ValidationProblem]) {
        var problems: [ValidationProblem] = []
        var sources: [String: JSONValue] = [:]
        for (name, value) in object.members {
            if !ConditionCompiler.isAttributeName(name) {
                problems.append(
                    ValidationProblem(
                        pointer.appending(name), .invalidCondition,
                        "\"\(name)\" is not a segment name: letters, digits, \"_\" and \".\", starting with a letter."))
            }
            sources[name] = value
        }
        var compiled: [String: Condition] = [:]
        var visiting: [String] = []
        var cyclic: Set<String> = []

        func visit(_ name: String) {
            if compiled[name] != nil { return }
            if let start = visiting.firstIndex(of: name) {
                cyclic.formUnion(visiting[start...])
                return
            }
            guard let source = sources[name] else { return }
            visiting.append(name)
            for dependency in Self.namedSegments(in: source, depth: 0) { visit(dependency) }
            visiting.removeLast()
            let (condition, found) = Condition.compile(source, segments: compiled)
            let at = pointer.appending(name)
            problems += found.map {
                ValidationProblem(JSONPointer(tokens: at.tokens + $0.pointer.tokens), $0.code, $0.message)
            }
            compiled[name] = condition
        }
        for name in object.keys { visit(name) }
        for name in object.keys where cyclic.contains(name) {
            problems.removeAll { problem in
                problem.code == .invalidCondition && problem.pointer.tokens.starts(with: pointer.appending(name).tokens)
                    && cyclic.contains { problem.message.hasPrefix("No segment is named \"\($0)\"") }
            }
            problems.append(
                ValidationProblem(
                    pointer.appending(name), .segmentCycle,
                    "The segment \"\(name)\" names itself through $inSegment (\(cyclic.sorted().joined(separator: ", "))); "
                        + "a segment may name only segments that do not name it back."))
        }
        let segments = object.keys.compactMap { name in compiled[name].map { Segment(name: name, condition: $0) } }
        return (segments, problems)
    }

    /// Every name an `$inSegment` member of `value` gives, at any depth.
    static func namedSegments(in value: JSONValue, depth: Int) -> [String] {
        guard depth <= ConditionCompiler.maximumDepth * 2 else { return [] }
        switch value {
        case .object(let object):
            var names: [String] = []
            for (key, member) in object.members {
                if key == "$inSegment", case .string(let name) = member { names.append(name) }
                names += namedSegments(in: member, depth: depth + 1)
            }
            return names
        case .array(let elements):
            return elements.flatMap { namedSegments(in: $0, depth: depth + 1) }
        default:
            return []
        }
    }
}
