import PreludeCore
import PreludeHTTP
import PreludeStore

/// The environment settings a request body sets: read by the environment routes and by change requests of kind
/// settings.
extension AdminAPI {
    /// The settings an environment has (docs/change-management.md, "Environments").
    static let environmentSettings = ["requiredApprovals", "allowSelfApproval", "lintStrict"]

    /// The settings a body sets; with `complete` (PUT) every setting is required.
    static func settingsChange(_ body: JSONValue, complete: Bool) throws(ProblemDetails) -> EnvironmentSettings.Change {
        guard case .object(let object) = body else {
            throw AdminProblem.invalidRequest(
                "the body must be a JSON object of environment settings (\(environmentSettings.joined(separator: ", ")))",
                pointer: "", code: "type.mismatch", status: .unprocessableContent)
        }
        var problems: [FieldProblem] = []
        var change = EnvironmentSettings.Change()
        for (key, value) in object.members {
            switch key {
            case "requiredApprovals":
                if let count = value.intValue, (0...EnvironmentSettings.maximumApprovals).contains(count) {
                    change.requiredApprovals = count
                } else {
                    problems.append(
                        FieldProblem(
                            pointer: "/requiredApprovals", code: "value.outOfRange",
                            detail: "requiredApprovals is an integer from 0 to \(EnvironmentSettings.maximumApprovals)")
                    )
                }
            case "allowSelfApproval", "lintStrict":
                guard case .bool(let flag) = value else {
                    problems.append(
                        FieldProblem(pointer: "/\(key)", code: "type.mismatch", detail: "\(key) is true or false"))
                    continue
                }
                if key == "lintStrict" { change.lintStrict = flag } else { change.allowSelfApproval = flag }
            default:
                problems.append(
                    FieldProblem(
                        pointer: JSONPointer.root.appending(key).description, code: "member.unknown",
                        detail: "'\(key)' is not an environment setting; settings: "
                            + environmentSettings.joined(separator: ", ")))
            }
        }
        if complete {
            for key in environmentSettings where object[key] == nil {
                problems.append(
                    FieldProblem(
                        pointer: "/\(key)", code: "member.missing",
                        detail: "PUT replaces every setting: '\(key)' is required (PATCH changes some)"))
            }
        }
        guard problems.isEmpty else { throw invalid(problems, consequence: "nothing was changed") }
        return change
    }

    /// 422 listing `problems`, then `consequence`.
    static func invalid(_ problems: [FieldProblem], consequence: String) -> ProblemDetails {
        ProblemDetails(
            status: .unprocessableContent, type: RequestProblem.validationType, title: "The request is not valid",
            detail: problems.map(\.detail).joined(separator: "; ") + "; " + consequence, errors: problems)
    }
}
