extension Decision {
    /// The JSON form the decide endpoint returns; absent members mean "does not apply".
    ///
    /// `{"feature", "action", "reason", "screen", "copy": {field: text}, "style", "path", "variant": {"experiment",
    /// "variant"}, "countsAgainst", "eligibleAt" (Unix seconds), "settingsDelayMs", "leaveScreenFirst",
    /// "events": {"onShow", "onContinue", "onDismiss", "onGranted", "onDenied"}}`
    public var jsonValue: JSONValue {
        var object = JSONObject()
        object["feature"] = .string(feature.rawValue)
        object["action"] = .string(action.rawValue)
        object["reason"] = .string(reason.rawValue)
        if let screen {
            object["screen"] = .string(screen.rawValue)
            var copyObject = JSONObject()
            for field in screen.fields {
                if let text = copy[field] { copyObject[field.rawValue] = .string(text) }
            }
            object["copy"] = .object(copyObject)
        }
        if let style { object["style"] = .string(style.rawValue) }
        if let path { object["path"] = .string(path.rawValue) }
        if let variant { object["variant"] = variant.jsonValue }
        if let countsAgainst { object["countsAgainst"] = .string(countsAgainst.rawValue) }
        if let eligibleAt { object["eligibleAt"] = .number(eligibleAt.secondsSinceEpoch) }
        if let settingsDelayMs { object["settingsDelayMs"] = .integer(settingsDelayMs) }
        if let leaveScreenFirst { object["leaveScreenFirst"] = .bool(leaveScreenFirst) }
        object["events"] = events.jsonValue
        return .object(object)
    }
}

extension Decision {
    /// Appends the compact JSON text of ``jsonValue`` to `output`, byte for byte what
    /// `jsonValue.serializedBytes()` gives, without building the tree (the decide endpoint's hot path).
    public func writeJSON(to output: inout [UInt8]) {
        func member(_ name: StaticString) {
            // Member names are fixed ASCII words with nothing to escape.
            JSONValue.writeLiteral(name, to: &output)
        }
        member("{\"feature\":")
        JSONValue.writeString(feature.rawValue, to: &output)
        member(",\"action\":")
        JSONValue.writeString(action.rawValue, to: &output)
        member(",\"reason\":")
        JSONValue.writeString(reason.rawValue, to: &output)
        if let screen {
            member(",\"screen\":")
            JSONValue.writeString(screen.rawValue, to: &output)
            member(",\"copy\":{")
            if !copy.isEmpty {
                // In the screen's field order, like `jsonValue`: one pass over the (at most four) entries puts
                // each text in its field's slot, instead of a hashed lookup per field.
                let fields = screen.fields
                var texts = [String?](repeating: nil, count: fields.count)
                for (field, text) in copy {
                    if let slot = fields.firstIndex(of: field) { texts[slot] = text }
                }
                var first = true
                for (slot, text) in texts.enumerated() {
                    guard let text else { continue }
                    if !first { output.append(UInt8(ascii: ",")) }
                    first = false
                    JSONValue.writeString(fields[slot].rawValue, to: &output)
                    output.append(UInt8(ascii: ":"))
                    JSONValue.writeString(text, to: &output)
                }
            }
            output.append(UInt8(ascii: "}"))
        }
        if let style {
            member(",\"style\":")
            JSONValue.writeString(style.rawValue, to: &output)
        }
        if let path {
            member(",\"path\":")
            JSONValue.writeString(path.rawValue, to: &output)
        }
        if let variant {
            member(",\"variant\":{\"experiment\":")
            JSONValue.writeString(variant.experiment, to: &output)
            member(",\"variant\":")
            JSONValue.writeString(variant.variant, to: &output)
            output.append(UInt8(ascii: "}"))
        }
        if let countsAgainst {
            member(",\"countsAgainst\":")
            JSONValue.writeString(countsAgainst.rawValue, to: &output)
        }
        if let eligibleAt {
            member(",\"eligibleAt\":")
            JSONValue.number(eligibleAt.secondsSinceEpoch).writeCompact(to: &output)
        }
        if let settingsDelayMs {
            member(",\"settingsDelayMs\":")
            JSONValue.writeInteger(settingsDelayMs, to: &output)
        }
        if let leaveScreenFirst {
            member(",\"leaveScreenFirst\":")
            JSONValue.writeLiteral(leaveScreenFirst ? "true" : "false", to: &output)
        }
        member(",\"events\":{")
        var firstStep = true
        func step(_ name: StaticString, _ event: AnalyticsEvent?) {
            guard let event else { return }
            if !firstStep { output.append(UInt8(ascii: ",")) }
            firstStep = false
            JSONValue.writeLiteral(name, to: &output)
            JSONValue.writeString(event.rawValue, to: &output)
        }
        step("\"onShow\":", events.onShow)
        step("\"onContinue\":", events.onContinue)
        step("\"onDismiss\":", events.onDismiss)
        step("\"onGranted\":", events.onGranted)
        step("\"onDenied\":", events.onDenied)
        member("}}")
    }
}

extension AnalyticsPlan {
    /// `{"onShow": "primeShown", ...}` with only the steps that exist.
    public var jsonValue: JSONValue {
        var object = JSONObject()
        let steps: [(String, AnalyticsEvent?)] = [
            ("onShow", onShow), ("onContinue", onContinue), ("onDismiss", onDismiss), ("onGranted", onGranted),
            ("onDenied", onDenied),
        ]
        for (name, event) in steps {
            if let event { object[name] = .string(event.rawValue) }
        }
        return .object(object)
    }
}
