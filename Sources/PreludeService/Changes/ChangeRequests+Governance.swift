import PreludeCore
import PreludeHTTP
import PreludeStorage
import PreludeStore

extension ChangeRequests {
    /// Changes `app`'s `environment` settings if the gate allows it (``GovernanceGate/settingsChange(current:proposed:authority:)``,
    /// judged in the write's own transaction against the settings stored then): loosening an environment that
    /// requires approvals needs `authority` `bypass` or an approved change request, else 403
    /// `settings-approval-required`. Audited (`action`, before/after of each member set, `bypass` or the change
    /// request) and told to webhooks as `environment.updated`, in one transaction with the change request `applying`
    /// applies (``ChangeRequestRepository/Application``).
    package func updateSettings(
        app: String, environment: String, change: EnvironmentSettings.Change, action: String = "environment.settings",
        authority: GovernanceGate.Authority, by actor: Actor,
        applying: ChangeRequestRepository.Application? = nil
    ) throws -> PolicyRepository.SettingsUpdate {
        let update = try store.updateEnvironment(
            app: app, name: environment, change: change, actor: actor.name, action: action, at: clock.milliseconds,
            check: { before in
                let verdict: GovernanceGate.Verdict
                do {
                    verdict = try GovernanceGate.settingsChange(
                        current: before.governance, proposed: change.applied(to: before.governance),
                        authority: authority)
                } catch GovernanceGate.Refusal.loosens(let members, let required) {
                    throw ChangeRequestProblem.settingsApprovalRequired(
                        app: app, environment: environment, members: members, requiredApprovals: required,
                        change: change.jsonValue)
                } catch {
                    preconditionFailure("a settings change is refused only for what it loosens: \(error)")
                }
                switch verdict {
                case .allowedBy(let used): return used
                // Nothing needed more than `write`: a change request that carried it is still named; a bypass
                // token that did not need its capability is not recorded as having used it.
                case .allowed:
                    if case .changeRequest = authority { return authority }
                    return .writer
                }
            }, applying: applying)
        let loosened = GovernanceGate.loosened(from: update.before.governance, to: update.after.governance)
        if authority == .bypass, update.before.requiredApprovals > 0, !loosened.isEmpty {
            logger.warning(
                "environment governance loosened without approval (bypass)",
                [
                    "app": app, "environment": environment, "by": actor.name,
                    "loosened": loosened.joined(separator: ","),
                ])
        }
        return update
    }
}
