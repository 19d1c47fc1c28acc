/// Everything that changes what ``PolicyResolver`` resolves for one document, and nothing else: the served
/// locale, the platform, the inputs the document's rules look at, and the variant drawn in each experiment.
/// Never the raw install id, so every install with the same variants shares one resolution.
///
/// Equal keys (under one ``ResolutionKeyShape``) mean byte-identical resolved policies; a server may cache
/// resolutions by it. `ResolutionKeyPropertyTests` checks that over generated documents with rules on every input.
public struct ResolutionKey: Hashable, Sendable {
    /// The locale served.
    public let locale: LocaleTag
    /// The client's preferred locale, only when a rule targets locales.
    public let preferredLocale: LocaleTag?
    /// The platform.
    public let platform: Platform?
    /// The OS version, only when a rule or the button strategy looks at it.
    public let osVersion: SemanticVersion?
    /// The app version, only when a rule looks at it.
    public let appVersion: SemanticVersion?
    /// The storefront region, only when a rule targets regions.
    public let region: StorefrontRegion?
    /// The declared age band, only when a rule targets age bands.
    public let ageRange: AgeRange?
    /// Per experiment in document order, the index of the variant drawn, or -1 when not enrolled.
    public let variants: [Int]
    /// The values of ``ResolutionKeyShape/attributesRead``, in its order (`null` when not sent).
    public let attributes: [JSONValue]

    /// The key of `context` for the document `shape` describes: resolves the locale and draws the variants
    /// (cheap hashing, no document walk).
    public init(context: borrowing ClientContext, shape: ResolutionKeyShape) {
        self.init(context: context, shape: shape, explicitLocale: shape.explicitLocale(context.locale))
    }

    /// The key of `context` with its explicit `locale` already looked at (``ResolutionKeyShape/explicitLocale(_:)``,
    /// which a server may remember per distinct value): the same key ``init(context:shape:)`` derives.
    package init(context: borrowing ClientContext, shape: ResolutionKeyShape, explicitLocale: ExplicitLocale?) {
        self.init(context: context, shape: shape, explicitLocale: explicitLocale, drawn: nil)
    }

    /// ``init(context:shape:explicitLocale:)`` with the variants already drawn: `drawn`, when given, holds per
    /// experiment the variant the install id draws (-1 for none), drawn from the id's bytes
    /// (``ResolutionKeyShape/ExperimentInputs/variant(forASCII:)``); the key applies the audiences and does not
    /// draw again.
    package init(
        context: borrowing ClientContext, shape: ResolutionKeyShape, explicitLocale: ExplicitLocale?,
        drawn: UnsafeBufferPointer<Int>?
    ) {
        if let match = explicitLocale?.match {
            locale = match
        } else {
            // No explicit locale, or none of its fallbacks has copy: Accept-Language, then the default.
            locale = LocaleResolver.resolve(
                explicit: nil, acceptLanguage: context.acceptLanguage, available: shape.availableLocales,
                defaultLocale: shape.defaultLocale)
        }
        // The preferred locale is the explicit tag when it parses, else Accept-Language's first tag.
        preferredLocale = shape.usesPreferredLocale ? (explicitLocale?.tag ?? context.preferredLocale) : nil
        platform = context.platform
        osVersion = shape.usesOSVersion ? context.osVersion : nil
        appVersion = shape.usesAppVersion ? context.appVersion : nil
        region = shape.usesRegion ? context.region : nil
        ageRange = shape.usesAgeRange ? context.ageRange : nil
        if shape.attributesRead.isEmpty {
            attributes = []
        } else {
            let values = context.attributes.values
            attributes = shape.readPaths.map { values[$0.whole] ?? context.momentValue($0) ?? .null }
        }
        if shape.experiments.isEmpty {
            variants = []
        } else if let drawn, drawn.count == shape.experiments.count {
            variants = shape.experiments.indices.map { shape.experiments[$0].admits(context) ? drawn[$0] : -1 }
        } else if let installId = context.installId, !installId.isEmpty {
            // The draw PolicyResolver.assign makes (Bucketing.assign), with the ranges precomputed per document.
            // An install outside an experiment's audience is not enrolled (PolicyResolver.assign).
            variants = shape.experiments.map { $0.admits(context) ? $0.variant(for: installId) ?? -1 : -1 }
        } else {
            variants = Array(repeating: -1, count: shape.experiments.count)
        }
    }

    /// What an explicit `locale` value means for one document: its parsed tag and the available locale it
    /// resolves to (nil when no tag of its fallback chain has copy; then Accept-Language decides).
    public struct ExplicitLocale: Sendable {
        /// The leading `language[-Script][-REGION]` of the value.
        public let tag: LocaleTag
        /// The first available tag of `tag`'s fallback chain.
        public let match: LocaleTag?
    }
}

extension ResolutionKey {
    /// Feeds one digest of the fields to `hasher` instead of a hasher round per string: a server looks a key up
    /// on every policy fetch. Equal keys have equal digests (a locale contributes its fingerprint; a version its
    /// numbers only, which equal versions share).
    public func hash(into hasher: inout Hasher) {
        var digest = Self.fold(0xCBF2_9CE4_8422_2325, locale.fingerprint &+ 1)
        digest = Self.fold(digest, preferredLocale.map { $0.fingerprint &+ 1 } ?? 0)
        digest = Self.fold(digest, osVersion)
        digest = Self.fold(digest, appVersion)
        for variant in variants { digest = Self.fold(digest, UInt64(bitPattern: Int64(variant))) }
        digest = Self.fold(digest, UInt64(variants.count))
        for attribute in attributes { digest = Self.fold(digest, attribute: attribute) }
        hasher.combine(digest)
        hasher.combine(platform)
        // Absent unless a rule targets them: no cost for the documents that do not.
        if region != nil || ageRange != nil {
            hasher.combine(region)
            hasher.combine(ageRange)
        }
    }

    /// A version's numbers folded in (5 for none).
    @inline(__always) private static func fold(_ digest: UInt64, _ version: SemanticVersion?) -> UInt64 {
        guard let version else { return fold(digest, 5) }
        let major = fold(digest, UInt64(truncatingIfNeeded: version.major))
        return fold(fold(major, UInt64(truncatingIfNeeded: version.minor)), UInt64(truncatingIfNeeded: version.patch))
    }

    /// An attribute value folded in: its kind, then its bits or its UTF-8 bytes (a `Hasher` round per string, with
    /// Unicode normalisation, cost a tenth of a cached decide).
    @inline(__always) private static func fold(_ digest: UInt64, attribute value: JSONValue) -> UInt64 {
        switch value {
        case .null: return fold(digest, UInt64(1))
        case .bool(let flag): return fold(digest, UInt64(flag ? 3 : 2))
        case .integer(let number): return fold(fold(digest, UInt64(4)), UInt64(bitPattern: Int64(number)))
        case .double(let number): return fold(fold(digest, UInt64(5)), number.bitPattern)
        case .string(let text):
            var result = fold(digest, UInt64(6))
            for byte in text.utf8 { result = fold(result, UInt64(byte)) }
            return fold(result, UInt64(text.utf8.count))
        case .array, .object: return fold(digest, UInt64(7))  // attributes are scalars; equality still compares them
        }
    }

    /// One FNV-1a style step of the digest.
    @inline(__always) private static func fold(_ digest: UInt64, _ value: UInt64) -> UInt64 {
        (digest ^ value) &* 0x0000_0100_0000_01B3
    }
}
