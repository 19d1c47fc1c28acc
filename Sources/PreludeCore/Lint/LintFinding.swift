/// One problem the linter found: which rule, how serious, where (a JSON pointer), and a sentence.
public struct LintFinding: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The rule id as docs/lint.md names it ("PA-2").
    public var ruleId: String
    /// How serious the finding is.
    public var severity: LintSeverity
    /// RFC 6901 pointer to the offending value in the linted document
    /// (`/features/camera/copy/fr/prime/continueLabel`).
    public var pointer: JSONPointer
    /// A sentence saying what is wrong and what to do.
    public var message: String

    /// Creates a finding.
    public init(ruleId: String, severity: LintSeverity, pointer: JSONPointer, message: String) {
        self.ruleId = ruleId
        self.severity = severity
        self.pointer = pointer
        self.message = message
    }

    /// Creates a finding for `rule`, at the rule's own severity unless overridden.
    public init(rule: LintRule, severity: LintSeverity? = nil, pointer: JSONPointer, message: String) {
        self.init(ruleId: rule.id, severity: severity ?? rule.severity, pointer: pointer, message: message)
    }

    /// A rule added after a stored revision was written, shown among its lint findings as `STORED` (a warning: the
    /// revision is served, and the next write must meet it; docs/policy.md, "Revisions written by earlier builds").
    /// The preview and `prelude policy lint --app` show a stored revision's ``StoredPolicyReader`` findings so.
    package static func stored(_ problem: ValidationProblem) -> LintFinding {
        LintFinding(
            ruleId: "STORED", severity: .warning, pointer: problem.pointer,
            message: "\(problem.code.rawValue): \(problem.message) (a rule added after this revision was written; "
                + "served with a fallback where a text is missing)")
    }

    /// "error PA-2 /features/camera/...: message"
    public var description: String { "\(severity.rawValue) \(ruleId) \(pointer): \(message)" }

    /// `{"ruleId", "severity", "pointer", "message"}` for `--json` and the admin API.
    public var jsonValue: JSONValue {
        [
            "ruleId": .string(ruleId), "severity": .string(severity.rawValue), "pointer": .string(pointer.description),
            "message": .string(message),
        ]
    }

    /// Document order (pointer), then the more serious first, then rule id.
    public static func < (lhs: LintFinding, rhs: LintFinding) -> Bool {
        if lhs.pointer != rhs.pointer { return lhs.pointer < rhs.pointer }
        if lhs.severity != rhs.severity { return lhs.severity > rhs.severity }
        return lhs.ruleId < rhs.ruleId
    }
}
