/// The address of one text: a screen and a field of it.
public struct CopyKey: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The screen.
    public var screen: CopyScreen
    /// The field of the screen.
    public var field: CopyField

    /// The key for `field` of `screen`.
    public init(_ screen: CopyScreen, _ field: CopyField) {
        self.screen = screen
        self.field = field
    }

    /// Every valid key, in canonical order.
    public static let all: [CopyKey] = CopyScreen.allCases.flatMap { screen in screen.fields.map { CopyKey(screen, $0) }
    }

    /// "screen.field", e.g. "prime.title".
    public var description: String { "\(screen).\(field)" }

    /// Canonical order: screens then fields as declared.
    public static func < (lhs: CopyKey, rhs: CopyKey) -> Bool {
        (CopyKey.all.firstIndex(of: lhs) ?? 0) < (CopyKey.all.firstIndex(of: rhs) ?? 0)
    }
}
