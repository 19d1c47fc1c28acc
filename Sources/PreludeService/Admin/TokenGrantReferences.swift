import PreludeCore
import PreludeHTTP
import PreludeStore

/// The apps and environments a token grant names that do not exist (`--app demoo`, `"environments": ["stagng"]`),
/// each with the closest existing name: the refusal of `prelude token create` and `POST /v1/admin/tokens` unless the
/// caller says the names are for apps or environments created later (`--allow-missing`, `"allowMissing": true`).
package struct TokenGrantReferences: Error, Sendable, CustomStringConvertible {
    /// Granted apps that do not exist.
    package var apps: [UnknownName]
    /// Granted environments that no granted app (no app, when the grant names none that exists) has.
    package var environments: [UnknownName]
    /// The apps that exist.
    package var knownApps: [String]
    /// The environments the granted apps have.
    package var knownEnvironments: [String]

    /// The unknown names of a grant's `apps` and `environments` (as given, so positions are the request's; nil: all)
    /// against the apps and environments stored; nil when every name exists.
    package static func check(apps: [String]?, environments: [String]?, repository: PolicyRepository) throws
        -> TokenGrantReferences?
    {
        let knownApps = try repository.appIDs()
        let unknownApps = UnknownName.find(apps ?? [], among: knownApps)
        var unknownEnvironments: [UnknownName] = []
        var knownEnvironments: [String] = []
        if let environments {
            let granted = (apps ?? knownApps).filter(knownApps.contains)
            var names = Set<String>()
            for app in granted.isEmpty ? knownApps : granted {
                for environment in try repository.environments(app: app) ?? [] { names.insert(environment.name) }
            }
            knownEnvironments = names.sorted()
            unknownEnvironments = UnknownName.find(environments, among: knownEnvironments)
        }
        guard !unknownApps.isEmpty || !unknownEnvironments.isEmpty else { return nil }
        return TokenGrantReferences(
            apps: unknownApps, environments: unknownEnvironments, knownApps: knownApps.sorted(),
            knownEnvironments: knownEnvironments)
    }

    /// One sentence per unknown name, for people: `no app is named 'demoo' (did you mean 'demo'?)`.
    package var sentences: [String] {
        apps.map { $0.description(kind: "app", known: knownApps) }
            + environments.map { $0.description(kind: "environment", known: knownEnvironments) }
    }

    package var description: String { sentences.joined(separator: "; ") }

    /// The problems of `POST /v1/admin/tokens`: `/apps/<i>` and `/environments/<i>`, code `value.unknown`.
    package var fieldProblems: [FieldProblem] {
        apps.map {
            FieldProblem(
                pointer: "/apps/\($0.index)", code: "value.unknown",
                detail: $0.description(kind: "app", known: knownApps)
                    + "; \"allowMissing\": true grants it for an app created later")
        }
            + environments.map {
                FieldProblem(
                    pointer: "/environments/\($0.index)", code: "value.unknown",
                    detail: $0.description(kind: "environment", known: knownEnvironments)
                        + "; \"allowMissing\": true grants it for an environment created later")
            }
    }
}
