/// One thing wrong with a policy document: where (a JSON pointer), what (a stable code), and a sentence.
public struct ValidationProblem: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Stable problem codes; clients may switch on them.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// The text is not JSON.
        case invalidJSON = "json.invalid"
        /// A value has the wrong JSON type.
        case typeMismatch = "type.mismatch"
        /// A member the format does not know (often a typo).
        case unknownMember = "member.unknown"
        /// A required member is absent.
        case missingMember = "member.missing"
        /// A value is not one of the allowed names.
        case invalidValue = "value.invalid"
        /// `schemaVersion` is not one this build reads.
        case unsupportedSchemaVersion = "schemaVersion.unsupported"
        /// `app.id` has characters outside letters, digits, ".", "-", "_" or is too long.
        case invalidAppId = "app.invalidId"
        /// A feature key is not in the catalogue.
        case unknownFeature = "feature.unknown"
        /// The feature cannot do the strategy at all.
        case unsupportedStrategy = "strategy.unsupported"
        /// A targeting rule picks a strategy for OS versions that cannot do it.
        case strategyNeedsNewerOS = "strategy.osTooOld"
        /// A partial-grant status the feature never reports.
        case unsupportedPartialStatus = "partial.statusUnsupported"
        /// A partial action the status does not allow.
        case unsupportedPartialAction = "partial.actionUnsupported"
        /// A text required by the chosen strategy and style is missing in the default locale.
        case missingCopy = "copy.missing"
        /// A text is empty or only whitespace.
        case emptyCopy = "copy.empty"
        /// A `{placeholder}` the service cannot fill.
        case unknownPlaceholder = "copy.unknownPlaceholder"
        /// A lone `{` or `}` that is neither a placeholder nor an escape (`{{`, `}}`).
        case malformedPlaceholder = "copy.malformedPlaceholder"
        /// A stored string holds a control character or a noncharacter (``StoredText``); a line feed is allowed
        /// only in copy messages.
        case forbiddenCharacter = "text.forbiddenCharacter"
        /// A malformed BCP 47 tag.
        case invalidLocale = "locale.invalid"
        /// A malformed OS version (`app.minimumOS`).
        case invalidVersion = "version.invalid"
        /// A malformed version range.
        case invalidVersionRange = "version.invalidRange"
        /// A cadence value outside its range.
        case cadenceOutOfRange = "cadence.outOfRange"
        /// A cadence on a feature the system asks only once (tracking).
        case cadenceNotAllowed = "cadence.notAllowed"
        /// A Settings behaviour on a feature that never shows the Settings nudge (tracking).
        case settingsNotAllowed = "settings.notAllowed"
        /// A Settings behaviour value outside its range.
        case settingsOutOfRange = "settings.outOfRange"
        /// Two targeting rules of a feature share a name.
        case duplicateRuleName = "targeting.duplicateName"
        /// A rule or variant name is empty.
        case emptyName = "name.empty"
        /// Two experiments share a key.
        case duplicateExperimentKey = "experiment.duplicateKey"
        /// An experiment's feature is not configured in `features`.
        case experimentUnknownFeature = "experiment.unknownFeature"
        /// Two experiments test the same feature.
        case duplicateExperimentFeature = "experiment.duplicateFeature"
        /// Coverage outside 0...1.
        case coverageOutOfRange = "experiment.coverageOutOfRange"
        /// An experiment's `alpha` or `minimumEffect` outside its range.
        case analysisSettingOutOfRange = "experiment.analysisSettingOutOfRange"
        /// An experiment without variants.
        case noVariants = "experiment.noVariants"
        /// Two variants share a name.
        case duplicateVariantName = "variant.duplicateName"
        /// A weight outside 0...100.
        case invalidWeight = "variant.invalidWeight"
        /// Weights that do not sum to 100.
        case weightsDoNotSum = "variant.weightsSum"
        /// A condition (`when.condition`, a segment, an `ask` rule) that is malformed, uses an unknown operator or
        /// segment, or a `$regex` outside the accepted subset.
        case invalidCondition = "condition.invalid"
        /// Segments that name each other in a cycle through `$inSegment`.
        case segmentCycle = "segment.cycle"
    }

    /// Where: a JSON pointer into the submitted document (the member that is wrong or should exist).
    public var pointer: JSONPointer
    /// What: a stable code.
    public var code: Code
    /// A sentence for people.
    public var message: String

    /// A problem at `pointer`.
    public init(_ pointer: JSONPointer, _ code: Code, _ message: String) {
        self.pointer = pointer
        self.code = code
        self.message = message
    }

    /// "pointer: code: message" (the root pointer prints as "/").
    public var description: String {
        "\(pointer.tokens.isEmpty ? "/" : pointer.description): \(code.rawValue): \(message)"
    }

    /// The problem as `{"pointer","code","detail"}`: the members of an entry of a problem+json `errors` list
    /// (RFC 9457 §3's example), so a dry run and a refusal read the same.
    public var jsonValue: JSONValue {
        ["pointer": .string(pointer.description), "code": .string(code.rawValue), "detail": .string(message)]
    }

    /// Orders by pointer, then code, so reports read top to bottom.
    public static func < (lhs: ValidationProblem, rhs: ValidationProblem) -> Bool {
        if lhs.pointer != rhs.pointer { return lhs.pointer < rhs.pointer }
        if lhs.code != rhs.code { return lhs.code.rawValue < rhs.code.rawValue }
        return lhs.message < rhs.message
    }
}
