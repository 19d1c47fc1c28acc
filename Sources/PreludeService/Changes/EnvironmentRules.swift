import PreludeCore
import PreludeStore

/// The settings of one environment that change management obeys: its ``ApprovalRules`` and whether a lint error
/// blocks a publish (`lintStrict`).
package struct EnvironmentRules: Sendable, Equatable {
    /// Approvals a change needs, and whether its author may give one.
    package var approval: ApprovalRules
    /// Whether a lint error refuses a publish (``PublishChecks``).
    package var lintStrict: Bool

    /// Rules.
    package init(approval: ApprovalRules, lintStrict: Bool) {
        self.approval = approval
        self.lintStrict = lintStrict
    }

    /// The environment every app has, and the only one the paths without an environment address.
    package static let production = "production"

    /// Where the rules of an environment come from: nil for an environment the app does not have, 404 for an
    /// unknown app (thrown).
    package typealias Source = @Sendable (_ app: String, _ environment: String) throws -> EnvironmentRules?

    /// The rules as stored: `production` only, with the app's `lintStrict` and no approval required.
    package static func stored(_ repository: PolicyRepository) -> Source {
        { app, environment in
            guard let lintStrict = try repository.lintStrict(app: app) else {
                throw PolicyStoreProblem.unknownApp(app)
            }
            guard environment == production else { return nil }
            return EnvironmentRules(approval: .none, lintStrict: lintStrict)
        }
    }
}
