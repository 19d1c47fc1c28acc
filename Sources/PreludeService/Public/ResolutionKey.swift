import PreludeCore

/// Everything that changes the bytes of a resolved policy, and nothing else: the served locale, the inputs the
/// document's rules look at, and the variant drawn in each experiment. Never the raw install id, so every
/// install with the same variants shares one prepared response.
package struct ResolutionKey: Hashable, Sendable {
    /// The locale served.
    package let locale: LocaleTag
    /// The client's preferred locale, only when a rule targets locales.
    package let preferredLocale: LocaleTag?
    /// The platform.
    package let platform: Platform?
    /// The OS version, only when a rule or the button strategy looks at it.
    package let osVersion: SemanticVersion?
    /// The app version, only when a rule looks at it.
    package let appVersion: SemanticVersion?
    /// Per experiment in document order, the index of the variant drawn, or -1 when not enrolled.
    package let variants: [Int]

    /// The key of `context` for a snapshot: resolves the locale and draws the variants (cheap hashing, no
    /// document walk).
    package init(context: ClientContext, snapshot: LiveSnapshot) {
        let shape = snapshot.keyShape
        locale = LocaleResolver.resolve(
            explicit: context.locale, acceptLanguage: context.acceptLanguage, available: snapshot.availableLocales,
            defaultLocale: snapshot.document.app.defaultLocale)
        preferredLocale = shape.usesPreferredLocale ? context.preferredLocale : nil
        platform = context.platform
        osVersion = shape.usesOSVersion ? context.osVersion : nil
        appVersion = shape.usesAppVersion ? context.appVersion : nil
        if shape.experiments.isEmpty {
            variants = []
        } else if let installId = context.installId, !installId.isEmpty {
            // The draw PolicyResolver.assign makes (Bucketing.assign), with the ranges precomputed per revision.
            variants = shape.experiments.map { $0.variant(for: installId) ?? -1 }
        } else {
            variants = Array(repeating: -1, count: shape.experiments.count)
        }
    }
}
