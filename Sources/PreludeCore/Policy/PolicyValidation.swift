/// The outcome of validating a submitted policy: the document when it is usable, and every problem.
public struct PolicyValidation: Sendable {
    /// The document, only when there are no problems.
    public let document: PolicyDocument?
    /// Every problem, sorted by pointer.
    public let problems: [ValidationProblem]

    /// Whether the document is usable.
    public var isValid: Bool { problems.isEmpty }

    /// A validation outcome; `document` is dropped when `problems` is not empty.
    public init(document: PolicyDocument?, problems: [ValidationProblem]) {
        self.problems = problems.sorted()
        self.document = problems.isEmpty ? document : nil
    }

    /// `{"valid": Bool, "errors": [{pointer, code, detail}]}`.
    public var jsonValue: JSONValue {
        ["valid": .bool(isValid), "errors": .array(problems.map(\.jsonValue))]
    }
}
