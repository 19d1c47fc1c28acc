import PreludeCore

/// The proposed documents this process validated and linted, by their canonical text: what a change request's apply
/// reuses instead of validating and linting the same bytes again (issue 25: an apply within 20 ms on the demo
/// policy; lint is most of a write's cost, BENCHMARKS.md).
///
/// Exact by construction: validation and lint are pure functions of the document and of this build, the key is the
/// whole canonical text the request stores, and the cache lives and dies with the process, so a request proposed
/// by an earlier build (or by another process, such as `prelude changes create`) misses and is checked again.
/// Bounded: a miss costs one validation and one lint, as before.
package final class CheckedProposals: Sendable {
    /// A document that validated, with its lint findings.
    package struct Entry: Sendable {
        /// The validated document.
        package var document: PolicyDocument
        /// Its lint findings (``PublishChecks/lintCheckers``, the same as `CopyLinter.lint(document)`).
        package var findings: [LintFinding]
    }

    private let cache: LRUCache<String, Entry>

    /// An empty cache of at most `capacity` documents.
    package init(capacity: Int = 16) {
        cache = LRUCache(capacity: capacity)
    }

    /// The checks of the document whose canonical text is `canonical`, if this process made them.
    package func entry(canonical: String) -> Entry? { cache.value(for: canonical) }

    /// Remembers the checks of `canonical`.
    package func remember(canonical: String, document: PolicyDocument, findings: [LintFinding]) {
        cache.insert(Entry(document: document, findings: findings), for: canonical)
    }

    /// The validated document and lint findings of `canonical`: remembered, or validated and linted now (and
    /// remembered). nil with the problems when it does not validate with this build.
    package func check(canonical: String) -> Result<Entry, PolicyValidationFailure> {
        if let entry = entry(canonical: canonical) { return .success(entry) }
        let validation = PolicyValidator.validate(text: canonical)
        guard let document = validation.document else {
            return .failure(PolicyValidationFailure(problems: validation.problems))
        }
        let entry = Entry(document: document, findings: PublishChecks.lintCheckers.lint(document))
        cache.insert(entry, for: canonical)
        return .success(entry)
    }
}

/// The problems of a document that does not validate (``CheckedProposals/check(canonical:)``).
package struct PolicyValidationFailure: Error, Sendable {
    /// Every problem, with its pointer.
    package var problems: [ValidationProblem]
}
