extension DecideContract {
    /// A client state the engine could not decide on, and where it is in the request: `/features/<index>/<member>`
    /// (``DecisionError/member``), the pointer decide's 422 names.
    public struct Failure: Error, Hashable, Sendable {
        /// Why the state cannot be decided on.
        public let error: DecisionError
        /// The member of the request's state at fault.
        public let pointer: JSONPointer

        /// The failure of the state at `index` of the request's `features`.
        public init(_ error: DecisionError, stateIndex index: Int) {
            self.error = error
            pointer = JSONPointer(tokens: ["features", String(index), error.member])
        }
    }

    /// The one decide function: a decision or a failure per state, in order, for `states` (each completed by
    /// ``completed(_:context:)``) within `policy` at `now`. The decide endpoint, both OFREP endpoints and the
    /// client's `OfflineDecider` call it, so they agree decision for decision and error for error.
    public static func decisions(in policy: ResolvedPolicy, for states: [ClientState], now: Instant)
        -> [Result<Decision, Failure>]
    {
        var results: [Result<Decision, Failure>] = []
        results.reserveCapacity(states.count)
        for (index, state) in states.enumerated() {
            do throws(DecisionError) {
                results.append(.success(try DecisionEngine.decide(in: policy, state: state, now: now)))
            } catch {
                results.append(.failure(Failure(error, stateIndex: index)))
            }
        }
        return results
    }
}
