/// When and why a feature asks: the feature entry's `access` object.
///
/// ```json
/// "photos": {"access": {"askAtLaunch": false, "useCase": "pick"}, ...}
/// ```
/// Not overridable by targeting rules or variants: it describes the app, not a wording or cadence to test.
public struct FeatureAccess: Sendable, Hashable {
    /// Whether the app may ask at launch; set it only when the app cannot work without the resource (HIG).
    /// A launch-time request for a feature without it gets no screen (``DecisionAction/askInContext``).
    public var askAtLaunch: Bool
    /// What access is for; nil when the policy does not say (the usual flow).
    public var useCase: AccessUseCase?

    /// Access settings; the defaults ask only when the feature is used, for an unstated use case.
    public init(askAtLaunch: Bool = false, useCase: AccessUseCase? = nil) {
        self.askAtLaunch = askAtLaunch
        self.useCase = useCase
    }

    /// Whether nothing is set (the member is then left out of the canonical and resolved JSON).
    public var isDefault: Bool { !askAtLaunch && useCase == nil }

    /// The features whose use case may be `pick`: those with a system picker that needs no permission.
    public static let pickFeatures: Set<Feature> = [.photos, .contacts]

    /// The JSON form: only the members that are set.
    public var jsonValue: JSONValue {
        var object = JSONObject()
        if askAtLaunch { object["askAtLaunch"] = .bool(true) }
        if let useCase { object["useCase"] = .string(useCase.rawValue) }
        return .object(object)
    }

    /// Reads an `access` object at `pointer` for `feature`, reporting every problem.
    public static func decode(_ value: JSONValue, feature: Feature, at pointer: JSONPointer)
        -> (access: FeatureAccess, problems: [ValidationProblem])
    {
        guard case .object(let object) = value else {
            return (
                FeatureAccess(),
                [ValidationProblem(pointer, .typeMismatch, "Expected an object with askAtLaunch and useCase.")]
            )
        }
        var problems: [ValidationProblem] = []
        var access = FeatureAccess()
        for (key, _) in object where key != "askAtLaunch" && key != "useCase" {
            problems.append(
                ValidationProblem(
                    pointer.appending(key), .unknownMember,
                    "Unknown member \"\(key)\"; allowed here: askAtLaunch, useCase."))
        }
        if let member = object["askAtLaunch"] {
            if let bool = member.boolValue {
                access.askAtLaunch = bool
            } else {
                problems.append(
                    ValidationProblem(
                        pointer.appending("askAtLaunch"), .typeMismatch,
                        "Expected true or false, found \(member.kindName)."))
            }
        }
        if let member = object["useCase"] {
            if let name = member.stringValue, let useCase = AccessUseCase(rawValue: name) {
                if useCase == .pick && !pickFeatures.contains(feature) {
                    problems.append(
                        ValidationProblem(
                            pointer.appending("useCase"), .invalidValue,
                            "\(feature) has no system picker; \"pick\" is for photos and contacts."))
                } else {
                    access.useCase = useCase
                }
            } else {
                problems.append(
                    ValidationProblem(
                        pointer.appending("useCase"), .invalidValue,
                        "Expected \(AccessUseCase.allCases.map(\.rawValue).joined(separator: " or "))."))
            }
        }
        return (access, problems)
    }
}
