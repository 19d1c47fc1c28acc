/// The problem types of a request either API refuses, whichever route answers it (docs/api.md): 400
/// `invalid-request` for a malformed request, 422 `validation` for well-formed content that is not acceptable. Types
/// are `urn:prelude:problem:…` names, like `PolicyStoreProblem`'s: stable identifiers, not links.
package enum RequestProblem {
    /// A malformed query parameter, header or request body: 400, with every problem's pointer.
    package static let invalidRequestType = "urn:prelude:problem:invalid-request"
    /// A well-formed body whose content is not acceptable (unknown names, out-of-range values): 422.
    package static let validationType = "urn:prelude:problem:validation"
}
