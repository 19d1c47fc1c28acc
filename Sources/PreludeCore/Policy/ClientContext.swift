/// What a client tells about itself when it fetches its policy; every field is optional.
public struct ClientContext: Sendable, Hashable {
    /// The client's platform.
    public var platform: Platform?
    /// The OS version (iOS numbering on iOS and iPadOS).
    public var osVersion: SemanticVersion?
    /// The app's version.
    public var appVersion: SemanticVersion?
    /// An explicit locale (the `locale` query parameter); wins over `acceptLanguage`.
    public var locale: String?
    /// The `Accept-Language` header value.
    public var acceptLanguage: String?
    /// A stable per-install id; without it the client is enrolled in no experiment.
    public var installId: String?
    /// The App Store storefront's country (`Storefront.countryCode`), sent like the OS version: targeting
    /// (`when.region`) and the engine's storefront-dependent rules read it (docs/catalogue.md).
    public var region: StorefrontRegion?
    /// The age band the person declared (Declared Age Range), only when the app asked for it: targeting
    /// (`when.ageRange`) reads it; nothing else does.
    public var ageRange: AgeRange?
    /// The attributes the app sends (and the `prelude.*` facts its client keeps), which conditions read.
    public var attributes: ClientAttributes
    /// The moments the app reported, by name (conditions read them as `prelude.moment.<name>.count`, `.first`,
    /// `.last`; an `ask` rule's `after` reads the count).
    public var moments: [String: MomentRecord]

    /// A context with the given fields.
    public init(
        platform: Platform? = nil,
        osVersion: SemanticVersion? = nil,
        appVersion: SemanticVersion? = nil,
        locale: String? = nil,
        acceptLanguage: String? = nil,
        installId: String? = nil,
        region: StorefrontRegion? = nil,
        ageRange: AgeRange? = nil,
        attributes: ClientAttributes = ClientAttributes(),
        moments: [String: MomentRecord] = [:]
    ) {
        self.attributes = attributes
        self.moments = moments
        self.platform = platform
        self.osVersion = osVersion
        self.appVersion = appVersion
        self.locale = locale
        self.acceptLanguage = acceptLanguage
        self.installId = installId
        self.region = region
        self.ageRange = ageRange
    }

    /// The locale the client prefers, whether or not the app has copy for it: the explicit locale when it parses,
    /// else the first language tag of `Accept-Language`. Targeting rules match against it.
    public var preferredLocale: LocaleTag? {
        if let locale, let tag = LocaleTag(parsingPrefixOf: locale) { return tag }
        if let acceptLanguage {
            return AcceptLanguage.parse(acceptLanguage).lazy.compactMap(\.tag).first
        }
        return nil
    }

    /// The value a condition reads at `path`: an attribute, or a moment's `prelude.moment.<name>.<field>`.
    public func conditionValue(_ path: String) -> JSONValue? {
        if let value = attributes.values[path] { return value }
        return momentValue(AttributePath(path))
    }

    func momentValue(_ path: AttributePath) -> JSONValue? {
        guard let (name, field) = path.moment, let record = moments[String(name)] else { return nil }
        return record.value(of: field)
    }

    /// Whether the client's OS is known to be at least `version` (iOS numbering); false when unknown or on a
    /// platform numbered otherwise.
    public func osIsAtLeast(_ version: SemanticVersion) -> Bool {
        guard let osVersion else { return false }
        if let platform, !platform.usesIOSVersions { return false }
        return osVersion >= version
    }
}
