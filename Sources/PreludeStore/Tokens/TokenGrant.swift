import PreludeCore

/// What a token may touch beside its ``TokenScope``: which apps and environments (nil: all of them, what every token
/// created before environments keeps meaning) and two capabilities, approving change requests (`approve`) and
/// applying a change without the approvals its environment requires (`bypass`, for automation; audited).
package struct TokenGrant: Sendable, Equatable {
    /// The apps it may touch, sorted; nil for all apps.
    package var apps: [String]?
    /// The environments it may touch (in each of its apps), sorted; nil for all environments.
    package var environments: [String]?
    /// Whether it may approve change requests.
    package var approve: Bool
    /// Whether it may apply changes without their required approvals.
    package var bypass: Bool

    /// Every app, every environment, neither capability: what tokens without a grant mean.
    package static let unrestricted = TokenGrant(apps: nil, environments: nil, approve: false, bypass: false)

    /// A grant; lists are sorted and deduplicated.
    package init(apps: [String]?, environments: [String]?, approve: Bool, bypass: Bool) {
        self.apps = apps.map { Array(Set($0)).sorted() }
        self.environments = environments.map { Array(Set($0)).sorted() }
        self.approve = approve
        self.bypass = bypass
    }

    /// Whether the grant covers `app` (whichever environment).
    package func covers(app: String) -> Bool { apps?.contains(app) ?? true }

    /// Whether the grant covers `environment` of `app`.
    package func covers(app: String, environment: String) -> Bool {
        covers(app: app) && (environments?.contains(environment) ?? true)
    }

    /// Whether the grant covers every app and every environment (what app-independent routes need: tokens, the
    /// audit log of every app, the change feed).
    package var coversEverything: Bool { apps == nil && environments == nil }
}

extension TokenGrant {
    /// `{"apps": [...] | "*", "environments": [...] | "*", "approve": bool, "bypass": bool}` (`*`: all).
    package var jsonValue: JSONValue {
        [
            "apps": apps.map { .array($0.map(JSONValue.string)) } ?? "*",
            "environments": environments.map { .array($0.map(JSONValue.string)) } ?? "*",
            "approve": .bool(approve), "bypass": .bool(bypass),
        ]
    }
}

extension TokenGrant {
    /// `apps demo, other; environments staging` (or `all apps; all environments`), for refusals and logs.
    package var summary: String {
        let apps = apps.map { $0.isEmpty ? "no app" : "apps " + $0.joined(separator: ", ") } ?? "all apps"
        let environments =
            environments.map { $0.isEmpty ? "no environment" : "environments " + $0.joined(separator: ", ") }
            ?? "all environments"
        return apps + "; " + environments
    }
}
