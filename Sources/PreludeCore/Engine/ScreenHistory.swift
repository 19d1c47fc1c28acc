/// What the client remembers about one kind of screen for one feature.
public struct ScreenHistory: Hashable, Sendable, Codable {
    /// How many times the screen has been shown.
    public var shownCount: Int
    /// When it was last shown; `nil` when never shown.
    public var lastShown: Instant?
    /// What the user did the last time; `nil` when never shown or unknown.
    public var lastOutcome: ScreenOutcome?

    /// A screen that was never shown.
    public static let never = ScreenHistory(shownCount: 0, lastShown: nil, lastOutcome: nil)

    /// Creates a history entry. `shownCount` must not be negative.
    public init(shownCount: Int, lastShown: Instant?, lastOutcome: ScreenOutcome? = nil) {
        precondition(shownCount >= 0, "shownCount must not be negative")
        self.shownCount = shownCount
        self.lastShown = lastShown
        self.lastOutcome = lastOutcome
    }
}
