import PreludeCore

/// One policy document resolved for one client, deciding with the server's own code: `PolicyResolver` then the
/// core's one decide function (`DecideContract.decisions(in:for:now:)`), exactly as `POST /v1/apps/{app}/decide`
/// and OFREP do.
///
/// Immutable and `Sendable`: the client builds one when the document, the context or a QA override changes, and
/// each decision is a dictionary lookup and the pure engine.
public struct OfflineDecider: Sendable {
    /// The document.
    public let document: PolicyDocument
    /// The live revision it came from (from the ETag), 0 for a bootstrap copy without one.
    public let revision: Int
    /// The client context it was resolved for.
    public let context: ClientContext
    /// The resolved policy (targeting applied, variants drawn, copy localised).
    public let resolved: ResolvedPolicy

    /// Resolves `document` for `context`. `forcedVariants` (experiment key → variant name, QA only) makes every
    /// install draw that variant, whatever the experiment's audience; unknown keys and names are ignored.
    public init(
        document: PolicyDocument, revision: Int, context: ClientContext, forcedVariants: [String: String] = [:]
    ) {
        var document = document
        if !forcedVariants.isEmpty {
            for index in document.experiments.indices {
                let key = document.experiments[index].key
                guard let forced = forcedVariants[key],
                    document.experiments[index].variants.contains(where: { $0.name == forced })
                else { continue }
                // As GrowthBook's forcedVariations: a forced variant ignores the audience too.
                document.experiments[index].coverage = 1
                document.experiments[index].condition = nil
                for variant in document.experiments[index].variants.indices {
                    let name = document.experiments[index].variants[variant].name
                    document.experiments[index].variants[variant].weight = name == forced ? 100 : 0
                }
            }
        }
        self.document = document
        self.revision = revision
        self.context = context
        resolved = PolicyResolver.resolve(document, context: context)
    }

    /// The state the server would decide on for `state`, as the decide endpoint reads it: the core's
    /// ``PreludeCore/DecideContract/completed(_:context:)`` with this decider's context (`whenInUse` is full access
    /// for `locationWhenInUse`; an entry without its own OS version takes the context's).
    public func completed(_ state: ClientState) -> ClientState {
        DecideContract.completed(state, context: context)
    }

    /// The decision for `state` at `now`.
    public func decide(_ state: ClientState, now: Instant) throws(DecisionError) -> Decision {
        try decisions([state], now: now)[0].mapError(\.error).get()
    }

    /// A decision or a failure (with decide's pointer) per state, in order, at `now`: the core's one decide function
    /// (``PreludeCore/DecideContract/decisions(in:for:now:)``), which `POST /decide` and OFREP call too, on the
    /// states completed as the server completes them.
    public func decisions(_ states: [ClientState], now: Instant) -> [Result<Decision, DecideContract.Failure>] {
        DecideContract.decisions(in: resolved, for: states.map(completed), now: now)
    }

    /// The body `POST /decide` answers for `states` at `now`: `{"revision", "locale", "decisions"}`, byte for byte
    /// (the core's ``PreludeCore/DecideContract/ResponseBody``, which the server writes too). Throws the first
    /// state's error when any cannot be decided on (the server answers 422 then).
    public func responseBody(_ states: [ClientState], now: Instant) throws(DecisionError) -> [UInt8] {
        var body = DecideContract.ResponseBody(
            revision: revision, locale: resolved.locale.description, expectedDecisions: states.count)
        for result in decisions(states, now: now) { body.append(try result.mapError(\.error).get()) }
        body.finish()
        return body.bytes
    }
}
