/// Applies a policy's ``CadenceRule`` to the client's ``ScreenHistory`` at an injected instant.
///
/// A pure state machine: the same rule, history and `now` always give the same verdict,
/// so tests drive it over simulated time without sleeping.
public enum CadenceEvaluator {
    /// The verdict for showing the screen at `now`.
    ///
    /// - `n` showings so far, `n ≥ maxShows` → exhausted (`maxShows == 0`: never shown).
    /// - Never shown → eligible.
    /// - Otherwise the next showing is the n-th re-show: eligible from
    ///   `lastShown + minIntervalHours × backoff^(n-1)` on.
    /// - A count without a `lastShown` instant leaves only the cap: the client lost the timestamp,
    ///   and we must not lock the screen away forever because of it.
    public static func verdict(rule: CadenceRule, history: ScreenHistory, now: Instant) -> CadenceVerdict {
        if history.shownCount >= rule.maxShows { return .exhausted }
        guard history.shownCount > 0, let last = history.lastShown else { return .eligible }
        let next = last.adding(seconds: interval(rule: rule, beforeReshow: history.shownCount))
        return now >= next ? .eligible : .notBefore(next)
    }

    /// Seconds that must pass before the k-th re-show (k ≥ 1): `minIntervalHours × 3600 × backoff^(k-1)`.
    public static func interval(rule: CadenceRule, beforeReshow k: Int) -> Double {
        precondition(k >= 1, "re-shows are counted from 1")
        var seconds = rule.minIntervalHours * 3_600
        // Repeated multiplication rather than pow() keeps PreludeCore free of Foundation.
        for _ in 1..<k { seconds *= rule.backoff }
        return seconds
    }
}
