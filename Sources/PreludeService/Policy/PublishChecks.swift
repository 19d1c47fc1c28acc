import PreludeCore
import PreludeHTTP

/// The one set of checks every path that publishes a policy revision applies before the policy store commits it:
/// the admin API's writes (rollback included) and `prelude policy import` (docs/admin.md, "One set of checks").
/// A read replica publishes nothing: it copies the revisions its primary published, already checked here, verbatim.
///
/// - validation (``PolicyValidator``; the caller has the decoded document);
/// - size: the canonical document at most ``maxDocumentBytes`` (the admin API's body limit; 413 beyond);
/// - lint (``CopyLinter``, with the word lists compiled by earlier writes: ``lintCheckers``): every finding is
///   returned for the answer and the audit record; under the environment's strict lint mode (`lintStrict`) a lint
///   error refuses the write with 422 `lint-errors`.
package enum PublishChecks {
    /// The largest policy document published, in bytes of its canonical form: the admin API's body limit.
    package static let maxDocumentBytes = AdminAPI.maxBodySize
    /// The compiled word lists every publishing path in this process lints with (compiled once, not per write).
    package static let lintCheckers = LintCheckerPool()

    /// The lint findings of `document`, after checking its size and, when `lintStrict`, that it has no lint error.
    /// Throws the problem the admin API answers with (413, 422 `lint-errors`).
    ///
    /// `findings` are the lint findings when this build already computed them for this very document (a change
    /// request's apply, ``CheckedProposals``); nil lints now.
    package static func check(
        _ document: PolicyDocument, canonicalSize: Int, lintStrict: Bool, findings known: [LintFinding]? = nil
    ) throws(ProblemDetails) -> [LintFinding] {
        guard canonicalSize <= maxDocumentBytes else {
            throw ProblemDetails(
                status: .contentTooLarge,
                detail: "the policy is \(canonicalSize) bytes in canonical form; at most \(maxDocumentBytes) bytes "
                    + "(1 MiB) are published; nothing was changed")
        }
        let findings = known ?? lintCheckers.lint(document)
        if lintStrict, findings.contains(where: { $0.severity == .error }) {
            throw AdminProblem.lintErrors(findings)
        }
        return findings
    }
}
