// Targets over PreludeCore's parsers: `json`, `policy`, `accept-language`, `locale-tag`, `semver`, `timestamp`, `instant`.
import PreludeCore

@testable import PreludeService

/// `json`: the strict parser; whatever it accepts serializes (compact and pretty) to text that parses back to an
/// equal value.
func fuzzJSON(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let value = try? JSONParser().parse(bytes: bytes) else { return }
    for layout in [JSONValue.Layout.compact, .pretty] {
        let text = value.serializedBytes(layout)
        guard let again = try? JSONParser().parse(text) else {
            fuzzFailure("serialize(parse(x)) does not parse", String(decoding: text, as: UTF8.self))
        }
        guard again == value else {
            fuzzFailure("serialize(parse(x)) parses to another value", String(decoding: text, as: UTF8.self))
        }
    }
}

/// `policy`: decoding and validation of a policy document. The input is validated as a document, and, when it is a
/// JSON object, also as a merge patch (RFC 7396) over the demo policy, so mutations reach the validator's and the
/// engine's deeper paths with documents that are mostly valid. A valid policy serializes to a document that
/// validates to the same policy, and resolves and decides for every feature and status without trapping.
func fuzzPolicy(_ bytes: UnsafeBufferPointer<UInt8>) {
    checkPolicy(PolicyValidator.validate(bytes: Array(bytes)))
    if let patch = try? JSONParser().parse(bytes: bytes), patch.objectValue != nil {
        checkPolicy(PolicyValidator.validate(demoPolicyJSON.mergePatch(patch)))
    }
}

private func checkPolicy(_ validation: PolicyValidation) {
    guard let document = validation.document else { return }
    let again = PolicyValidator.validate(document.jsonValue)
    guard again.document == document else {
        fuzzFailure(
            "a valid policy does not survive its own serialization",
            document.jsonValue.serialized() + "\n" + again.problems.map(\.description).joined(separator: "\n"))
    }
    let context = ClientContext(
        platform: .ios, osVersion: SemanticVersion("17.4"), appVersion: SemanticVersion("2.3.0"), locale: "fr-CA",
        installId: "8C1F0A2E")
    let resolved = PolicyResolver.resolve(document, context: context)
    _ = resolved.jsonValue.serializedBytes()
    let now = Instant(secondsSinceEpoch: Double(fuzzNowMilliseconds) / 1000)
    let long = ScreenHistory(shownCount: 19, lastShown: Instant(secondsSinceEpoch: 1), lastOutcome: .dismissed)
    for feature in resolved.features.keys {
        for status in AuthorizationStatus.allCases {
            let state = ClientState(
                feature: feature, status: status, available: true, osVersion: context.osVersion,
                history: [.prime: long, .settings: long, .upgrade: long], trackingPromptShown: false)
            if let decision = try? DecisionEngine.decide(in: resolved, state: state, now: now) {
                _ = decision.jsonValue.serializedBytes()
            }
        }
    }
}

/// `accept-language`: the header parser; every entry it returns has a weight in (0, 1], sorted highest first.
func fuzzAcceptLanguage(_ bytes: UnsafeBufferPointer<UInt8>) {
    let entries = AcceptLanguage.parse(String(decoding: bytes, as: UTF8.self))
    for (index, entry) in entries.enumerated() {
        guard entry.quality > 0, entry.quality <= 1, index == 0 || entries[index - 1].quality >= entry.quality else {
            fuzzFailure("an entry out of range or order", "\(entries)")
        }
    }
    _ = ClientContext(acceptLanguage: String(decoding: bytes, as: UTF8.self)).preferredLocale
}

/// `locale-tag`: a tag that parses prints a canonical form that parses to the same tag.
func fuzzLocaleTag(_ bytes: UnsafeBufferPointer<UInt8>) {
    let text = String(decoding: bytes, as: UTF8.self)
    if let tag = LocaleTag(text) {
        guard LocaleTag(tag.description) == tag else { fuzzFailure("the canonical form parses differently", text) }
        _ = tag.fallbackChain
    }
    if let prefix = LocaleTag(parsingPrefixOf: text) {
        guard LocaleTag(prefix.description) == prefix else { fuzzFailure("the prefix parses differently", text) }
    }
}

/// `semver`: versions and ranges. A version prints as written and parses back equal; a range's canonical form
/// parses back to the same range; comparing and matching never traps. Input: a version, then after the first
/// NUL byte (if any) a range.
func fuzzSemanticVersion(_ bytes: UnsafeBufferPointer<UInt8>) {
    let parts = bytes.split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false)
    let versionText = String(decoding: parts[0], as: UTF8.self)
    let version = SemanticVersion(versionText)
    if let version {
        guard SemanticVersion(version.description) == version, version.description == versionText else {
            fuzzFailure("a version does not print as written", versionText)
        }
        let other = SemanticVersion(major: 17, minor: 4)
        guard !(version < version), !(version < other && version == other), !(version < other && other < version)
        else { fuzzFailure("versions are not ordered", versionText) }
    }
    guard parts.count > 1 else { return }
    let rangeText = String(decoding: parts[1], as: UTF8.self)
    guard let range = VersionRange(rangeText) else { return }
    guard VersionRange(range.description) == range else {
        fuzzFailure("a range's canonical form parses differently", rangeText)
    }
    if let version { _ = range.contains(version) }
}

/// `timestamp`: RFC 3339 event times; a time it accepts is one the full events decoder accepts the same way.
func fuzzTimestamp(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let milliseconds = EventTimestamp.parseRFC3339(bytes: bytes) else { return }
    // Four-digit years and offsets below a day bound the result: 0000-01-01 minus a day to 9999-12-31 plus one.
    guard milliseconds >= -62_167_305_600_000, milliseconds <= 253_402_387_200_000 else {
        fuzzFailure("a time outside years 0000-9999", "\(milliseconds) from \(String(decoding: bytes, as: UTF8.self))")
    }
    guard EventTimestamp.parseRFC3339(String(decoding: bytes, as: UTF8.self)) == milliseconds else {
        fuzzFailure("the String and byte parsers disagree", String(decoding: bytes, as: UTF8.self))
    }
}

/// `instant`: the one RFC 3339 parser and writer (``RFC3339``: schedules, audit filters, events, OFREP). Whatever it
/// accepts lies within years 0000-9999, is accepted the same way where a space separator is allowed, and round-trips:
/// parse → write → parse gives the same instant, and writing that again gives the same text; without fractions the
/// written text reads as the instant cut to the second.
func fuzzInstant(_ bytes: UnsafeBufferPointer<UInt8>) {
    let strict = RFC3339.milliseconds(bytes: bytes)
    let lenient = RFC3339.milliseconds(bytes: bytes, allowingSpaceSeparator: true)
    let text = String(decoding: bytes, as: UTF8.self)
    if let strict, lenient != strict {
        fuzzFailure("the lenient parser reads a strict date-time differently", text)
    }
    guard let milliseconds = strict else { return }
    guard milliseconds >= RFC3339.earliestMilliseconds, milliseconds <= RFC3339.latestMilliseconds else {
        fuzzFailure("an instant RFC 3339 cannot write", "\(milliseconds) from \(text)")
    }
    let written = RFC3339.string(milliseconds: milliseconds)
    guard RFC3339.milliseconds(written) == milliseconds else {
        fuzzFailure("parse → write → parse changed the instant", "\(text) → \(written)")
    }
    guard RFC3339.string(milliseconds: RFC3339.milliseconds(written) ?? 0) == written else {
        fuzzFailure("writing is not stable", "\(text) → \(written)")
    }
    let whole = RFC3339.string(milliseconds: milliseconds, fractionalSeconds: false)
    let floored = milliseconds - ((milliseconds % 1000) + 1000) % 1000
    guard RFC3339.milliseconds(whole) == floored else {
        fuzzFailure("the text without fractions is not the instant cut to the second", "\(text) → \(whole)")
    }
}
