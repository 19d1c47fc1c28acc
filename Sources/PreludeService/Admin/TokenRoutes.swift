import PreludeCore
import PreludeHTTP
import PreludeStore

/// The token endpoints, holding the token store, the apps (a grant's names checked) and the clock.
struct TokenRoutes: AdminRouteCollection {
    let tokens: TokenStore
    let apps: PolicyRepository
    let clock: ServiceClock

    /// The current time in milliseconds since the epoch.
    var now: Int64 { clock.milliseconds }

    /// `GET /v1/admin/tokens`, `POST /v1/admin/tokens`, `DELETE /v1/admin/tokens/{name}`: all need `write`,
    /// since token names and scopes are what an attacker would look for first.
    func register(on group: inout AdminRouteGroup) {
        group.add(.get, "/v1/admin/tokens", scope: .write, query: []) { [self] context in
            let list = try tokens.list()
            return AdminResponse.json(["tokens": .array(list.map(\.jsonValue))], pretty: context.pretty)
        }
        group.add(.post, "/v1/admin/tokens", query: [], maxBodySize: 4096) { [self] context in
            let body = try AdminRequestBody.parse(context.request)
            let (name, scope, grant) = try Self.tokenRequest(body)
            // A grant naming an app or environment that does not exist is refused (a typo would otherwise give a
            // token that may touch nothing), unless the body says they come later.
            if body["allowMissing"] != .bool(true),
                let unknown = try TokenGrantReferences.check(
                    apps: body["apps"]?.arrayValue?.compactMap(\.stringValue),
                    environments: body["environments"]?.arrayValue?.compactMap(\.stringValue), repository: apps)
            {
                throw ProblemDetails(
                    status: .unprocessableContent, type: RequestProblem.invalidRequestType,
                    title: "The request is not valid",
                    detail: "the grant names \(unknown.description); no token was created",
                    errors: unknown.fieldProblems)
            }
            let (token, secret) = try tokens.create(
                name: name, scope: scope, grant: grant, actor: context.token.name, now: now)
            context.logger.info(
                "admin token created",
                ["token": name, "scope": scope.rawValue, "grant": grant.summary, "by": context.token.name])
            // The only place the secret ever appears; `no-store` (set by AdminResponse) keeps it out of caches.
            return AdminResponse.json(
                token.jsonValue.mergePatch(["token": .string(secret)]), pretty: context.pretty, status: .created)
        }
        group.add(.delete, "/v1/admin/tokens/{name}", query: []) { [self] context in
            let token = try tokens.revoke(name: context.parameter("name"), actor: context.token.name, now: now)
            context.logger.info("admin token revoked", ["token": token.name, "by": context.token.name])
            return AdminResponse.json(token.jsonValue, pretty: context.pretty)
        }
    }

    /// `{"name": "...", "scope": "read"|"replica"|"write", "apps"?: [...] | "*", "environments"?: [...] | "*",
    /// "approve"?: bool, "bypass"?: bool, "allowMissing"?: bool}`; every problem at once, with pointers. Without
    /// `apps`/`environments` the token may touch every app and environment.
    static func tokenRequest(_ body: JSONValue) throws(ProblemDetails) -> (String, TokenScope, TokenGrant) {
        var reader = try RequestBodyReader(
            body: body,
            expected: "the body must be an object {\"name\": ..., \"scope\": \"read\"|\"replica\"|\"write\"}")
        reader.reportUnknown(allowed: ["name", "scope", "apps", "environments", "approve", "bypass", "allowMissing"]) {
            "unknown member '\($0)'"
        }
        let name = reader["name"]?.stringValue
        if name == nil {
            reader.report("name", "member.missing", "a string 'name' is required")
        } else if let name, !AdminToken.isValidName(name) {
            reader.report("name", "token.invalidName", TokenError.invalidName(name).description)
        }
        let scope = reader["scope"]?.stringValue.flatMap(TokenScope.init(rawValue:))
        if scope == nil {
            reader.report("scope", "value.invalid", "'scope' must be \"read\", \"replica\" or \"write\"")
        }
        let apps = grantList(
            &reader, "apps", valid: PolicyValidator.isValidAppId,
            rule: "an app id: 1–128 letters, digits, '.', '-' or '_'")
        let environments = grantList(
            &reader, "environments", valid: EnvironmentName.isValid,
            rule: "an environment name: \(EnvironmentName.rule)")
        func flag(_ key: String) -> Bool { reader.read(key, as: .bool, mismatch: "'\(key)' is true or false") ?? false }
        _ = flag("allowMissing")  // read by the route: only its type is checked here
        let grant = TokenGrant(apps: apps, environments: environments, approve: flag("approve"), bypass: flag("bypass"))
        if grant.bypass, scope != .write { reader.report("bypass", "value.invalid", "'bypass' needs scope \"write\"") }
        guard !reader.hasProblems, let name, let scope else {
            throw RequestBodyReader.unprocessable(
                reader.problems, type: RequestProblem.invalidRequestType, consequence: "no token was created")
        }
        return (name, scope, grant)
    }

    /// `apps` or `environments` of a grant: absent or `"*"` (nil: every one), else an array of valid names.
    private static func grantList(
        _ reader: inout RequestBodyReader, _ key: String, valid: (String) -> Bool, rule: String
    ) -> [String]? {
        guard let value = reader[key], value.stringValue != "*" else { return nil }
        guard let items = reader.read(key, as: .array, mismatch: "'\(key)' is \"*\" or an array") else { return [] }
        var names: [String] = []
        for (index, item) in items.enumerated() {
            guard let name = item.stringValue, valid(name) else {
                reader.report(key, index: index, "value.invalid", rule)
                continue
            }
            names.append(name)
        }
        return names
    }
}
