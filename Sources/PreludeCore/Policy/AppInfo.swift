/// The app a policy document belongs to.
public struct AppInfo: Sendable, Hashable {
    /// The app's id in the service (letters, digits, ".", "-", "_"; e.g. "demo" or a bundle id).
    public var id: String
    /// The display name that fills `{appName}`.
    public var name: String
    /// The locale whose copy must be complete; every fallback chain ends there.
    public var defaultLocale: LocaleTag

    /// App information with the given parts; the default locale defaults to English.
    public init(id: String, name: String, defaultLocale: LocaleTag = LocaleTag("en")!) {
        self.id = id
        self.name = name
        self.defaultLocale = defaultLocale
    }
}
