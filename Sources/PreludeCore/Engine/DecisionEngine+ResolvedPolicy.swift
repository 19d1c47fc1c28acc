extension DecisionEngine {
    /// Decides for `state`'s feature within an app's resolved policy (the decide endpoint's path).
    ///
    /// - Throws: ``DecisionError/featureNotConfigured(_:)`` when the policy has no such feature, and the errors of
    ///   ``decide(policy:state:now:)``.
    public static func decide(in policy: ResolvedPolicy, state: ClientState, now: Instant) throws(DecisionError)
        -> Decision
    {
        guard let feature = policy[state.feature] else { throw .featureNotConfigured(state.feature) }
        return try decide(policy: feature, state: state, now: now)
    }
}
