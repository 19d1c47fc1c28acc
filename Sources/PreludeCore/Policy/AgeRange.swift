/// The age band a person declared (Declared Age Range, iOS 26): inclusive bounds, either of which may be unknown.
/// The `ageRange` of ``ClientContext``, reported only when the app asked the system for it.
///
/// Wire form: `"13-15"` (both bounds), `"18+"` (no upper bound: at or above the app's highest age gate), `"0-12"`
/// (below the lowest gate). Apple's `AgeRangeService.AgeRange` has the same two optional bounds
/// (https://developer.apple.com/documentation/declaredagerange/agerangeservice/agerange); a nil lower bound is 0.
public struct AgeRange: Hashable, Sendable, CustomStringConvertible {
    /// The youngest age in the band.
    public let lowerBound: Int
    /// The oldest age in the band; nil when open-ended.
    public let upperBound: Int?

    /// A band; nil when the bounds are negative, above 150 or reversed.
    public init?(lowerBound: Int?, upperBound: Int?) {
        let lower = lowerBound ?? 0
        guard (0...150).contains(lower) else { return nil }
        if let upperBound { guard (lower...150).contains(upperBound) else { return nil } }
        self.lowerBound = lower
        self.upperBound = upperBound
    }

    /// The band of the wire form `"13-15"` or `"18+"`; nil for anything else.
    public init?(_ text: String) {
        if text.hasSuffix("+") {
            guard let lower = Self.number(text.dropLast()) else { return nil }
            self.init(lowerBound: lower, upperBound: nil)
            return
        }
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let lower = Self.number(parts[0]), let upper = Self.number(parts[1]) else {
            return nil
        }
        self.init(lowerBound: lower, upperBound: upper)
    }

    /// The wire form.
    public var description: String {
        upperBound.map { "\(lowerBound)-\($0)" } ?? "\(lowerBound)+"
    }

    private static func number(_ text: Substring) -> Int? {
        guard (1...3).contains(text.utf8.count), text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int(text)
    }
}

/// A targeting rule's `when.ageRange`: `">=18"` matches a band entirely at or above 18, `"<18"` a band entirely
/// below it. A band that straddles the bound (or an unknown one) matches neither: a rule never guesses an age.
public struct AgeCondition: Hashable, Sendable, CustomStringConvertible {
    /// Whether the band must lie at or above ``bound`` (`>=`), or below it (`<`).
    public let atLeast: Bool
    /// The age compared with.
    public let bound: Int

    /// The condition of `">=N"` or `"<N"` (N from 1 to 150); nil for anything else.
    public init?(_ text: String) {
        let atLeast = text.hasPrefix(">=")
        guard atLeast || text.hasPrefix("<") else { return nil }
        let digits = text.dropFirst(atLeast ? 2 : 1)
        guard (1...3).contains(digits.utf8.count), digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            let bound = Int(digits), (1...150).contains(bound)
        else { return nil }
        self.atLeast = atLeast
        self.bound = bound
    }

    /// Whether `band` lies wholly on the condition's side of the bound.
    public func matches(_ band: AgeRange) -> Bool {
        if atLeast { return band.lowerBound >= bound }
        guard let upper = band.upperBound else { return false }
        return upper < bound
    }

    /// The canonical text (`>=18`, `<18`).
    public var description: String { (atLeast ? ">=" : "<") + String(bound) }
}
