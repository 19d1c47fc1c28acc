import PreludeCore
import PreludeHTTP

/// Reads one JSON object of a request body member by member, collecting every problem (pointer, code, detail)
/// instead of stopping at the first, so that a route answers all of them at once and changes nothing.
///
/// The typed getters return the member's value, or nil after recording a problem (`member.missing` when a required
/// member is absent, `type.mismatch` when it has another JSON type); ``reportUnknown(allowed:detail:)`` names every
/// member the route does not take (`member.unknown`). The body readers of the admin API (tokens, promotions, change
/// requests, webhooks, rollouts), the decide route and the event batch all read through it.
struct RequestBodyReader {
    /// The object being read.
    let object: JSONObject
    /// The JSON pointer of the object: `""` for the body itself, `/events/3` for an event of a batch.
    let pointer: String
    /// Every problem found so far, in the order found.
    var problems: [FieldProblem] = []

    /// Reads `object`, found at `pointer`.
    init(_ object: JSONObject, at pointer: String = "") {
        self.object = object
        self.pointer = pointer
    }

    /// Reads `body`, which must be an object: else 422 `type.mismatch` at the root saying `expected` (what the body
    /// should look like).
    init(body: JSONValue, expected: String) throws(ProblemDetails) {
        guard case .object(let object) = body else {
            throw AdminProblem.invalidRequest(
                expected, pointer: "", code: "type.mismatch", status: .unprocessableContent)
        }
        self.init(object)
    }

    /// Whether any problem was found.
    var hasProblems: Bool { !problems.isEmpty }

    /// The raw value of `member`, without any check.
    subscript(member: String) -> JSONValue? { object[member] }

    /// The pointer of `member` (escaped, RFC 6901 §3), with `index` of an array member appended when given.
    func pointer(to member: String, index: Int? = nil) -> String {
        let base = pointer + "/" + JSONPointer.escape(member)
        guard let index else { return base }
        return base + "/" + String(index)
    }

    /// Records a problem at `member` (and `index` of it, for an array item).
    mutating func report(_ member: String, index: Int? = nil, _ code: String, _ detail: String) {
        problems.append(FieldProblem(pointer: pointer(to: member, index: index), code: code, detail: detail))
    }

    /// Records a problem at the object itself.
    mutating func reportHere(_ code: String, _ detail: String) {
        problems.append(FieldProblem(pointer: pointer, code: code, detail: detail))
    }

    /// Records `member.unknown` for every member not in `allowed`, in the body's order; `detail` says it of a name.
    mutating func reportUnknown(allowed: some Collection<String>, detail: (String) -> String) {
        for key in object.keys where !allowed.contains(key) {
            report(key, "member.unknown", detail(key))
        }
    }

    /// The members not in `allowed`, in the body's order.
    func unknownMembers(allowed: some Collection<String>) -> [String] {
        object.keys.filter { !allowed.contains($0) }
    }

    /// A JSON type a member is read as: its name for problems ("a string") and how to take the value.
    struct Kind<Value> {
        /// "a string", "an array", …: what a `type.mismatch` problem says was expected.
        let name: String
        /// The value when it has this type, else nil.
        let take: (JSONValue) -> Value?
    }

    /// `member` read `as` a kind (`.string`, `.bool`, `.integer`, `.array`, `.object`), or nil: nil when absent
    /// (recording `member.missing` saying `missing` when given), when null and `nullIsAbsent`, or when of another
    /// type (recording `type.mismatch` saying `mismatch`, else "expected a string, found number").
    mutating func read<Value>(
        _ member: String, as kind: Kind<Value>, missing: String? = nil, mismatch: String? = nil,
        nullIsAbsent: Bool = false
    ) -> Value? {
        guard let value = object[member], !(nullIsAbsent && value.isNull) else {
            if let missing { report(member, "member.missing", missing) }
            return nil
        }
        guard let typed = kind.take(value) else {
            report(member, "type.mismatch", mismatch ?? "expected \(kind.name), found \(value.kindName)")
            return nil
        }
        return typed
    }

    /// Throws `problem(problems)` when any problem was found.
    func finish(_ problem: ([FieldProblem]) -> ProblemDetails) throws(ProblemDetails) {
        guard problems.isEmpty else { throw problem(problems) }
    }

    /// 422 for a body with `problems`: "N problems; " + `consequence`, each problem with its pointer.
    static func unprocessable(
        _ problems: [FieldProblem], type: String = RequestProblem.validationType,
        title: String = "The request is not valid", consequence: String = "nothing was changed"
    ) -> ProblemDetails {
        ProblemDetails(
            status: .unprocessableContent, type: type, title: title,
            detail: "\(problems.count) problem\(problems.count == 1 ? "" : "s"); \(consequence)", errors: problems)
    }
}

extension RequestBodyReader.Kind where Value == String {
    /// A string.
    static var string: Self { Self(name: "a string") { $0.stringValue } }
}

extension RequestBodyReader.Kind where Value == Bool {
    /// `true` or `false`.
    static var bool: Self { Self(name: "a boolean") { $0.boolValue } }
}

extension RequestBodyReader.Kind where Value == Int {
    /// An integer.
    static var integer: Self { Self(name: "an integer") { $0.intValue } }
}

extension RequestBodyReader.Kind where Value == [JSONValue] {
    /// An array.
    static var array: Self { Self(name: "an array") { $0.arrayValue } }
}

extension RequestBodyReader.Kind where Value == JSONObject {
    /// An object.
    static var object: Self { Self(name: "an object") { $0.objectValue } }
}
