/// Applies a ``CadenceRule`` to a ``ScreenHistory`` at an injected instant.
///
/// A pure state machine: the same rule, history and `now` always give the same verdict,
/// so tests drive it over simulated time without sleeping.
public enum CadenceEvaluator {
    /// The verdict for showing the screen at `now`.
    ///
    /// - Never shown → eligible (unless the cap is 0).
    /// - Shown `n` times, `n ≥ maximumShowings` → exhausted.
    /// - Otherwise the next showing is the n-th re-show: eligible once
    ///   `lastShown + minimumInterval × backoff^(n-1)` has been reached.
    /// - A history with a count but no `lastShown` instant is treated as shown at the epoch's start,
    ///   i.e. only the cap applies (the client lost the timestamp; we must not lock the screen forever).
    public static func verdict(rule: CadenceRule, history: ScreenHistory, now: Instant) -> CadenceVerdict {
        if let cap = rule.maximumShowings, history.shownCount >= cap { return .exhausted }
        guard history.shownCount > 0, let last = history.lastShown else { return .eligible }
        let next = last.adding(seconds: rule.interval(beforeReshow: history.shownCount))
        return now >= next ? .eligible : .notBefore(next)
    }
}
