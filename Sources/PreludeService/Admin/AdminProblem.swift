import PreludeCore
import PreludeHTTP

/// The problem documents the admin API answers with (RFC 9457). Types are `urn:prelude:problem:…` names, like
/// `PolicyStoreProblem`'s: stable identifiers, not links.
package enum AdminProblem {
    /// A policy document (or feature, or patch result) failed validation: 422 with every problem and pointer.
    package static let invalidPolicyType = "urn:prelude:problem:invalid-policy"
    /// The body is not JSON: 400 with the position.
    package static let malformedJSONType = "urn:prelude:problem:malformed-json"

    /// 422 listing every validation problem with its pointer, code and message.
    package static func invalidPolicy(_ problems: [ValidationProblem], detail: String? = nil) -> ProblemDetails {
        ProblemDetails(
            status: .unprocessableContent, type: invalidPolicyType, title: "The policy is not valid",
            detail: detail ?? "\(problems.count) problem\(problems.count == 1 ? "" : "s"); nothing was changed",
            errors: problems.map {
                FieldProblem(pointer: $0.pointer.description, code: $0.code.rawValue, detail: $0.message)
            })
    }

    /// The app is in strict lint mode and the policy after the change has lint errors.
    package static let lintErrorsType = "urn:prelude:problem:lint-errors"

    /// 422 listing the lint errors of the policy a write would make live (strict mode), each with its pointer and
    /// its rule id as code (`lint.PA-2`); warnings and infos do not refuse a write and are not listed.
    package static func lintErrors(_ findings: [LintFinding]) -> ProblemDetails {
        let errors = findings.filter { $0.severity == .error }
        return ProblemDetails(
            status: .unprocessableContent, type: lintErrorsType, title: "The policy has lint errors",
            detail: "\(errors.count) lint error\(errors.count == 1 ? "" : "s") and the app is in strict lint mode "
                + "(PATCH /v1/admin/apps/{app} {\"lintStrict\": false} turns it off); nothing was changed",
            errors: errors.map {
                FieldProblem(pointer: $0.pointer.description, code: "lint.\($0.ruleId)", detail: $0.message)
            })
    }

    /// 422 `rollout-content`: a rollout's new copy has lint errors (in any locale); it does not start
    /// (docs/rollouts.md, "Content gate"). Every error with its pointer into the policy the first step would
    /// publish.
    package static func rolloutContentErrors(_ findings: [LintFinding]) -> ProblemDetails {
        ProblemDetails(
            status: .unprocessableContent, type: rolloutContentType, title: "The rollout's new copy has lint errors",
            detail: "\(findings.count) lint error\(findings.count == 1 ? "" : "s") in what the new arm would show "
                + "(App Review rules, docs/lint.md); a rollout starts only with clean copy in every locale; nothing "
                + "was started",
            errors: findings.map {
                FieldProblem(pointer: $0.pointer.description, code: "lint.\($0.ruleId)", detail: $0.message)
            })
    }

    /// The problem type of ``rolloutContentErrors(_:)``.
    package static let rolloutContentType = "urn:prelude:problem:rollout-content"

    /// 400 for a body that is not JSON.
    package static func malformedJSON(_ error: JSONParseError) -> ProblemDetails {
        ProblemDetails(
            status: .badRequest, type: malformedJSONType, title: "The body is not valid JSON",
            detail: "\(error.description); nothing was changed",
            errors: [FieldProblem(pointer: "", code: "json.invalid", detail: error.description)])
    }

    /// 400 or 422 for a wrong request member or query parameter.
    package static func invalidRequest(
        _ detail: String, pointer: String? = nil, code: String = "value.invalid", status: HTTPStatus = .badRequest
    ) -> ProblemDetails {
        // docs/api.md: 400 is a malformed request (`invalid-request`), 422 well-formed content that is unacceptable
        // (`validation`), whichever route answers it.
        ProblemDetails(
            status: status,
            type: status == .unprocessableContent ? RequestProblem.validationType : RequestProblem.invalidRequestType,
            title: "The request is not valid", detail: detail,
            errors: pointer.map { [FieldProblem(pointer: $0, code: code, detail: detail)] } ?? [])
    }

    /// 404 naming what is missing.
    package static func notFound(_ detail: String) -> ProblemDetails {
        ProblemDetails(status: .notFound, detail: detail)
    }
}
