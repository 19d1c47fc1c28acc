/// How the app opens Settings after a denial (seed camera-authorization-flow: leave the screen first, then delay).
public struct SettingsBehaviour: Sendable, Hashable, Codable {
    /// Allowed `delayMs`.
    public static let delayRange: ClosedRange<Int> = 0...10_000

    /// Milliseconds to wait before opening the Settings URL (opening it from an alert handler can crash).
    public var delayMs: Int
    /// Whether to pop the feature's screen before showing the nudge, so a denied camera never shows black.
    public var leaveScreenFirst: Bool

    /// A behaviour with the given values.
    public init(delayMs: Int, leaveScreenFirst: Bool) {
        self.delayMs = delayMs
        self.leaveScreenFirst = leaveScreenFirst
    }

    /// Built-in values: 200 ms, leave the screen first.
    public static let builtIn = SettingsBehaviour(delayMs: 200, leaveScreenFirst: true)
}
