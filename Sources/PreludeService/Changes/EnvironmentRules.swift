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
    package static let production = EnvironmentName.production

    /// Where the rules of an environment come from: nil for an environment the app does not have, 404 for an
    /// unknown app (thrown).
    package typealias Source = @Sendable (_ app: String, _ environment: String) throws -> EnvironmentRules?

    /// The rules as stored with each environment (`environments`: `requiredApprovals`, `allowSelfApproval`,
    /// `lintStrict`, docs/change-management.md).
    package static func stored(_ repository: PolicyRepository) -> Source {
        { app, environment in
            guard let settings = try repository.environment(app: app, name: environment) else {
                guard try repository.app(app) != nil else { throw PolicyStoreProblem.unknownApp(app) }
                return nil
            }
            return EnvironmentRules(settings)
        }
    }
}

extension EnvironmentRules {
    /// The rules of an environment's stored settings.
    package init(_ settings: EnvironmentSettings) {
        self.init(
            approval: ApprovalRules(
                requiredApprovals: min(max(settings.requiredApprovals, 0), ApprovalRules.maximumRequired),
                allowSelfApproval: settings.allowSelfApproval),
            lintStrict: settings.lintStrict)
    }
}
