/// Chooses the locale to serve from an explicit parameter, `Accept-Language`, and the locales an app has copy for.
public enum LocaleResolver {
    /// The locale to serve.
    ///
    /// Candidates in preference order: the explicit `locale` parameter (when it parses), then the
    /// Accept-Language entries by q-value. For each candidate its ``LocaleTag/fallbackChain`` is walked and the
    /// first tag in `available` wins; a `*` entry means "anything": the default locale. When nothing
    /// matches, `defaultLocale`. An unparsable `explicit` value is ignored here; callers that must reject
    /// it (HTTP 400) check it with ``LocaleTag/init(_:)`` first.
    public static func resolve(
        explicit: String?,
        acceptLanguage: String?,
        available: Set<LocaleTag>,
        defaultLocale: LocaleTag
    ) -> LocaleTag {
        if let explicit, let tag = LocaleTag(parsingPrefixOf: explicit), let match = firstAvailable(tag, available) {
            return match
        }
        if let acceptLanguage {
            for entry in AcceptLanguage.parse(acceptLanguage) {
                guard let tag = entry.tag else { return defaultLocale }
                if let match = firstAvailable(tag, available) { return match }
            }
        }
        return defaultLocale
    }

    /// The available locales to look a string up in, in order, for a served locale: its fallback chain
    /// restricted to `available`, cut at the default locale, and always ending with `defaultLocale`.
    ///
    /// Used per string, so that a translation missing one text falls back tag by tag
    /// (`zh-Hant-TW` → `zh-Hant` → `zh` → default) rather than straight to the default.
    public static func fallbackChain(
        for tag: LocaleTag,
        available: Set<LocaleTag>,
        defaultLocale: LocaleTag
    ) -> [LocaleTag] {
        var chain: [LocaleTag] = []
        for candidate in tag.fallbackChain where available.contains(candidate) {
            // The default must hold every string, so nothing after it can be reached.
            if candidate == defaultLocale { break }
            chain.append(candidate)
        }
        chain.append(defaultLocale)
        return chain
    }

    /// The first tag of `tag.fallbackChain` that is available. Runs per request: the tag itself, the most common
    /// hit, is tried before the chain is built.
    static func firstAvailable(_ tag: LocaleTag, _ available: Set<LocaleTag>) -> LocaleTag? {
        if available.contains(tag) { return tag }
        return tag.fallbackChain.dropFirst().first(where: available.contains)
    }
}
