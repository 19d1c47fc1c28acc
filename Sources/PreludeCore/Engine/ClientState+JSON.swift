extension ClientState {
    /// Reads a client state as the decide endpoint receives it, reporting every problem with its pointer.
    ///
    /// ```json
    /// {"feature": "camera", "status": "denied", "available": true, "osVersion": "18.1",
    ///  "trackingPromptShown": false, "origin": "featureUse",
    ///  "history": {"settings": {"shownCount": 1, "lastShown": 1800000000, "lastOutcome": "dismissed"}}}
    /// ```
    /// Apple's own status names are accepted too: `fullAccess` and `authorizedAlways` are `authorized`;
    /// `authorizedWhenInUse` (or `whenInUse`) is `authorized` for `locationWhenInUse` and the partial
    /// `whenInUse` for `locationAlways`; `authorizationDeniedGlobally` is `deniedGlobally`. Location's
    /// `insufficientlyInUse` and photos' `preventsAutomaticLimitedAccessAlert` are optional booleans. `available` defaults to true, `history` to never shown.
    ///
    /// - Returns: the state, or the problems (never both).
    public static func decode(_ json: JSONValue, at pointer: JSONPointer = .root)
        -> (state: ClientState?, problems: [ValidationProblem])
    {
        var problems: [ValidationProblem] = []
        func report(_ at: JSONPointer, _ code: ValidationProblem.Code, _ message: String) {
            problems.append(ValidationProblem(at, code, message))
        }
        guard case .object(let object) = json else {
            return (
                nil,
                [ValidationProblem(pointer, .typeMismatch, "Expected a client state object, found \(json.kindName).")]
            )
        }
        for (key, _) in object where !stateMembers.contains(key) {
            report(
                pointer.appending(key), .unknownMember,
                "Unknown member \"\(key)\"; allowed here: \(stateMembers.joined(separator: ", ")).")
        }

        var feature: Feature?
        if let value = object["feature"] {
            if let name = value.stringValue, let parsed = Feature(rawValue: name) {
                feature = parsed
            } else {
                report(
                    pointer.appending("feature"), .unknownFeature,
                    "\(value) is not a known feature; expected one of \(Feature.allCases.map(\.rawValue).joined(separator: ", "))."
                )
            }
        } else {
            report(pointer.appending("feature"), .missingMember, "A client state names its feature.")
        }

        var status: AuthorizationStatus?
        if let value = object["status"] {
            if let name = value.stringValue, let parsed = normalisedStatus(name, feature: feature) {
                status = parsed
            } else {
                report(
                    pointer.appending("status"), .invalidValue,
                    "Expected an authorization status: \(AuthorizationStatus.allCases.map(\.rawValue).joined(separator: ", "))."
                )
            }
        } else {
            report(pointer.appending("status"), .missingMember, "A client state gives its authorization status.")
        }

        // Booleans: `null` is absent only for the photos member, as the contract has always read them.
        func bool(_ name: String, nullIsAbsent: Bool = false) -> Bool? {
            guard let value = object[name], !(nullIsAbsent && value.isNull) else { return nil }
            if let bool = value.boolValue { return bool }
            report(pointer.appending(name), .typeMismatch, "Expected true or false, found \(value.kindName).")
            return nil
        }
        let available = bool("available") ?? true
        let trackingPromptShown = bool("trackingPromptShown") ?? false
        let insufficientlyInUse = bool("insufficientlyInUse") ?? false
        let preventsAlert = bool("preventsAutomaticLimitedAccessAlert", nullIsAbsent: true)
        var origin = RequestOrigin.featureUse
        if let value = object["origin"] {
            if let name = value.stringValue, let parsed = RequestOrigin(rawValue: name) {
                origin = parsed
            } else {
                report(
                    pointer.appending("origin"), .invalidValue,
                    "Expected \(RequestOrigin.allCases.map(\.rawValue).joined(separator: " or ")).")
            }
        }
        var osVersion: SemanticVersion?
        if let value = object["osVersion"] {
            if let text = value.stringValue, let version = SemanticVersion(text) {
                osVersion = version
            } else {
                report(pointer.appending("osVersion"), .invalidValue, "Expected a version string such as \"18.1\".")
            }
        }

        let history = object["history"].map { decodeHistories($0, at: pointer, report: report) } ?? [:]

        guard problems.isEmpty, let feature, let status else { return (nil, problems.sorted()) }
        return (
            ClientState(
                feature: feature, status: status, available: available, osVersion: osVersion,
                history: history, trackingPromptShown: trackingPromptShown, origin: origin,
                insufficientlyInUse: insufficientlyInUse, preventsAutomaticLimitedAccessAlert: preventsAlert), []
        )
    }

    /// The members a client state may have.
    private static let stateMembers = [
        "feature", "status", "available", "osVersion", "history", "trackingPromptShown", "origin",
        "insufficientlyInUse", "preventsAutomaticLimitedAccessAlert",
    ]

    /// The members a history entry may have.
    private static let historyMembers = ["shownCount", "lastShown", "lastOutcome"]

    /// The `history` member: screen histories by cadence kind.
    private static func decodeHistories(
        _ value: JSONValue, at pointer: JSONPointer, report: (JSONPointer, ValidationProblem.Code, String) -> Void
    ) -> [CadenceKind: ScreenHistory] {
        // Pointers are built only for a problem: a valid state (every request in practice) needs none.
        guard case .object(let kinds) = value else {
            report(
                pointer.appending("history"), .typeMismatch,
                "Expected an object keyed by screen kind, found \(value.kindName).")
            return [:]
        }
        var history: [CadenceKind: ScreenHistory] = [:]
        for (key, entry) in kinds {
            guard let kind = CadenceKind(rawValue: key) else {
                report(
                    pointer.appending("history", key), .unknownMember,
                    "\"\(key)\" is not a screen kind; use \(CadenceKind.allCases.map(\.rawValue).joined(separator: ", "))."
                )
                continue
            }
            if let parsed = decodeHistory(entry, at: { pointer.appending("history", key) }, report: report) {
                history[kind] = parsed
            }
        }
        return history
    }

    private static func decodeHistory(
        _ value: JSONValue, at entryPointer: () -> JSONPointer,
        report: (JSONPointer, ValidationProblem.Code, String) -> Void
    ) -> ScreenHistory? {
        guard case .object(let object) = value else {
            report(entryPointer(), .typeMismatch, "Expected an object with shownCount, lastShown and lastOutcome.")
            return nil
        }
        var valid = true
        for (key, _) in object where !historyMembers.contains(key) {
            report(
                entryPointer().appending(key), .unknownMember,
                "Unknown member \"\(key)\"; allowed here: shownCount, lastShown, lastOutcome.")
            valid = false
        }
        var count = 0
        if let value = object["shownCount"] {
            if let int = value.intValue, int >= 0 {
                count = int
            } else {
                report(entryPointer().appending("shownCount"), .invalidValue, "Expected a whole number ≥ 0.")
                valid = false
            }
        }
        var lastShown: Instant?
        if let value = object["lastShown"], !value.isNull {
            if let seconds = value.doubleValue, seconds.isFinite {
                lastShown = Instant(secondsSinceEpoch: seconds)
            } else {
                report(
                    entryPointer().appending("lastShown"), .typeMismatch,
                    "Expected Unix seconds, found \(value.kindName).")
                valid = false
            }
        }
        var outcome: ScreenOutcome?
        if let value = object["lastOutcome"], !value.isNull {
            if let name = value.stringValue, let parsed = ScreenOutcome(rawValue: name) {
                outcome = parsed
            } else {
                report(
                    entryPointer().appending("lastOutcome"), .invalidValue,
                    "Expected \(ScreenOutcome.allCases.map(\.rawValue).joined(separator: ", ")).")
                valid = false
            }
        }
        return valid ? ScreenHistory(shownCount: count, lastShown: lastShown, lastOutcome: outcome) : nil
    }

    private static func normalisedStatus(_ name: String, feature: Feature?) -> AuthorizationStatus? {
        switch name {
        case "fullAccess", "authorizedAlways": return .authorized
        // CLServiceSession.Diagnostic's name for Location Services off device-wide.
        case "authorizationDeniedGlobally": return .deniedGlobally
        case "authorizedWhenInUse", "whenInUse":
            switch feature {
            case .locationAlways: return .whenInUse
            case .locationWhenInUse: return .authorized
            default: return AuthorizationStatus(rawValue: name)
            }
        default: return AuthorizationStatus(rawValue: name)
        }
    }
}
