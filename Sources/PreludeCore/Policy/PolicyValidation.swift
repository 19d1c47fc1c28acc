/// The outcome of validating a submitted policy: the document when it is usable, and every problem.
public struct PolicyValidation: Sendable {
    /// The document, only when there are no problems.
    public let document: PolicyDocument?
    /// Every problem, sorted by pointer.
    public let problems: [ValidationProblem]

    /// Whether the document is usable.
    public var isValid: Bool { problems.isEmpty }

    /// The canonical JSON form of ``document`` (its `jsonValue`), when there is a document and the validation built
    /// it (``PolicyValidator`` does, to check every stored string): a caller diffing, sizing or storing the document
    /// need not build it again.
    public let canonicalJSON: JSONValue?

    /// A validation outcome; `document` (and `canonicalJSON`, its canonical form when the caller has it) are dropped
    /// when `problems` is not empty.
    public init(document: PolicyDocument?, problems: [ValidationProblem], canonicalJSON: JSONValue? = nil) {
        self.problems = problems.sorted()
        self.document = problems.isEmpty ? document : nil
        self.canonicalJSON = problems.isEmpty && document != nil ? canonicalJSON : nil
    }

    /// `{"valid": Bool, "errors": [{pointer, code, detail}]}`.
    public var jsonValue: JSONValue {
        ["valid": .bool(isValid), "errors": .array(problems.map(\.jsonValue))]
    }
}
