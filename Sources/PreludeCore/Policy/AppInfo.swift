/// The app a policy document belongs to.
public struct AppInfo: Sendable, Hashable {
    /// The app's id in the service (letters, digits, ".", "-", "_"; e.g. "demo" or a bundle id).
    public var id: String
    /// The display name that fills `{appName}`.
    public var name: String
    /// The locale whose copy must be complete; every fallback chain ends there.
    public var defaultLocale: LocaleTag

    /// The app's deployment target (iOS numbering) as written, or nil when the document does not say.
    public var minimumOS: SemanticVersion?

    /// The deployment target assumed when the document does not give one: iOS 12, the lowest that Xcode 15
    /// and 16 accept.
    // Written "12.0" so it prints as the documents write it.
    public static let defaultMinimumOS = SemanticVersion("12.0")!

    /// The lowest OS a client of the app can run: `minimumOS`, or ``defaultMinimumOS``. The engine refuses a
    /// client state reporting an older OS, and features introduced after it need `unsupported` copy.
    public var effectiveMinimumOS: SemanticVersion { minimumOS ?? Self.defaultMinimumOS }

    /// App information with the given parts; the default locale defaults to English.
    public init(
        id: String, name: String, defaultLocale: LocaleTag = LocaleTag("en")!, minimumOS: SemanticVersion? = nil
    ) {
        self.id = id
        self.name = name
        self.defaultLocale = defaultLocale
        self.minimumOS = minimumOS
    }
}
