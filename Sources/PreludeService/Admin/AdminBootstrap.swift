import PreludeStore

/// At start: stores `PRELUDE_ADMIN_TOKEN` as the `bootstrap` token, or says in the log how to get a first token.
package enum AdminBootstrap {
    /// Applies the bootstrap secret (if any) and logs what happened; never logs the secret.
    package static func run(secret: RedactedSecret?, tokens: TokenStore, logger: Logger, now: Int64) throws {
        let variable = ConfigurationSetting.adminTokenVariable
        if let secret {
            switch try tokens.bootstrap(secret: secret.value, now: now) {
            case .created:
                logger.info("admin token stored", ["token": TokenStore.bootstrapName, "source": variable])
            case .updated:
                logger.info("admin token replaced", ["token": TokenStore.bootstrapName, "source": variable])
            case .unchanged:
                break
            case .keptRevoked:
                logger.warning(
                    "\(variable) holds the secret of the revoked token 'bootstrap'; it stays revoked. Remove the variable, or set a new secret to re-activate it",
                    ["token": TokenStore.bootstrapName])
            }
        }
        if try tokens.activeCount() == 0 {
            logger.warning(
                "no admin token: /v1/admin/** answers 401 until one exists. Create one with `prelude token create --name NAME --scope write` (same --database), or start with \(variable) set to a random secret of at least \(TokenSecret.minimumLength) characters"
            )
        }
    }
}
