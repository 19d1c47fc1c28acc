import Testing

@testable import PreludeCore

/// ``PolicyValidator/rulesVersion`` names what a revision stamped with it skips at start-up: the validator's rules,
/// ``StoredPolicyReader/servableCodes`` and the canonical form (docs/storage.md, "Start-up"). This fingerprints all
/// three over a fixed corpus (every problem code, the servable set, the problems and stored readings of a few hundred
/// mutations of two documents, and the canonical bytes of each mutation that validates). A change to any of them
/// changes the fingerprint, and this test fails until ``PolicyValidator/rulesVersion`` is raised and the new
/// fingerprint recorded under the new number: a revision accepted under the old rules is then validated again by the
/// next start-up, and its findings reported, instead of being trusted.
///
/// A tripwire, not a proof: a rule change this corpus does not reach goes unseen, so raise the version for every
/// rule change whether or not this test notices it.
@Suite struct PolicyRulesVersionTests {
    /// Fingerprint per rules version. Add a row when raising ``PolicyValidator/rulesVersion``; never edit a row.
    static let fingerprints: [Int: String] = [
        1: "8668fa234a1a87c9",
        // Conditions, segments, attribute declarations and ask rules (issue 38).
        2: "bf3ba8deadf82a90",
    ]

    @Test func theRulesVersionNamesTheseRules() {
        let fingerprint = Self.fingerprint()
        #expect(
            Self.fingerprints[PolicyValidator.rulesVersion] == fingerprint,
            """
            the validator's rules, StoredPolicyReader.servableCodes or the canonical form changed (fingerprint \
            \(fingerprint)): raise PolicyValidator.rulesVersion and add [\(PolicyValidator.rulesVersion + 1): \
            "\(fingerprint)"] here
            """)
    }

    @Test func theCorpusReachesManyRules() {
        // The fingerprint is only as good as the corpus: it must break most kinds of rule.
        var codes: Set<ValidationProblem.Code> = []
        for text in Self.corpus() { codes.formUnion(PolicyValidator.validate(text: text).problems.map(\.code)) }
        #expect(codes.count >= 15, "\(codes.map(\.rawValue).sorted())")
        #expect(codes.isSuperset(of: [.missingCopy, .forbiddenCharacter, .emptyCopy, .unknownPlaceholder]))
    }

    /// FNV-1a 64 of the corpus's outcomes, hex.
    static func fingerprint() -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func add(_ text: String) {
            for byte in text.utf8 + [0x0A] {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01B3
            }
        }
        add(ValidationProblem.Code.allCases.map(\.rawValue).sorted().joined(separator: ","))
        add(StoredPolicyReader.servableCodes.map(\.rawValue).sorted().joined(separator: ","))
        for text in corpus() {
            let validation = PolicyValidator.validate(text: text)
            add(validation.problems.map { "\($0.pointer) \($0.code.rawValue)" }.sorted().joined(separator: ";"))
            if let document = validation.document {
                add(document.jsonValue.serialized())
            } else {
                let reading = StoredPolicyReader.read(text: text)
                add(reading.document == nil ? "refused" : "served " + reading.fallbacks.map(\.description).joined())
                if let document = reading.document { add(document.jsonValue.serialized()) }
            }
        }
        return String(hash, radix: 16)
    }

    /// The two documents and every single mutation of them (``mutations(of:)``), as compact JSON text.
    static func corpus() -> [String] {
        [minimal, health].flatMap { text -> [String] in
            guard let json = try? JSONValue(parsing: Array(text.utf8)) else { return [text] }
            return [json.serialized()] + mutations(of: json).map { $0.serialized() }
        }
    }

    /// `json` with one change at one place: every member removed in turn, an unknown member added to every object,
    /// every array emptied and its first element doubled, every scalar replaced by values that break rules.
    static func mutations(of json: JSONValue) -> [JSONValue] {
        var results: [JSONValue] = []
        switch json {
        case .object(let object):
            var unknown = object
            unknown["zzUnknown"] = 1
            results.append(.object(unknown))
            for key in object.keys {
                var removed = JSONObject()
                for other in object.keys where other != key { removed[other] = object[other] }
                results.append(.object(removed))
                for mutated in mutations(of: object[key] ?? .null) {
                    var changed = object
                    changed[key] = mutated
                    results.append(.object(changed))
                }
            }
        case .array(let elements):
            results.append(.array([]))
            if let first = elements.first { results.append(.array([first] + elements)) }
            for index in elements.indices {
                for mutated in mutations(of: elements[index]) {
                    var changed = elements
                    changed[index] = mutated
                    results.append(.array(changed))
                }
            }
        case .string:
            results += ["", " ", "a\u{7}b", "{nope}", "{appName", "two\nlines", "zz-ZZZZ-1", "9.9.9"].map {
                .string($0)
            }
        case .integer, .double:
            results += [-1, 0, 0.5, 101, 100_000].map { JSONValue.double($0) }
        case .bool(let value):
            results.append(.bool(!value))
        case .null:
            results.append("x")
        }
        return results
    }

    static let minimal = """
        {"schemaVersion":1,"app":{"id":"test","name":"Test App","minimumOS":"15.0"},
         "defaults":{"strategy":"prime","copy":{"en":{
           "prime":{"continueLabel":"Continue"},
           "settings":{"openLabel":"Open Settings","cancelLabel":"Not Now"},
           "denied":{"title":"Access is off","message":"You can turn it on in Settings."},
           "restricted":{"title":"Not available","message":"A device setting blocks this."},
           "unsupported":{"title":"Not on this device","message":"This device does not have it."}}}},
         "features":{
           "microphone":{"copy":{"en":{
             "prime":{"title":"Record notes","message":"{appName} records voice notes."},
             "settings":{"title":"Microphone is off","message":"Open Settings to record."}}},
             "cadence":{"minIntervalHours":24,"backoff":2,"maxShows":3}},
           "camera":{"strategy":"direct","copy":{"fr":{"denied":{"title":"Caméra","message":"Réglages."}}}}},
         "experiments":[{"key":"mic","feature":"microphone","coverage":0.5,
           "variants":[{"name":"a","weight":50},{"name":"b","weight":50}]}]}
        """

    static let health = """
        {"schemaVersion":1,"app":{"id":"tiny"},"features":{"health":{"strategy":"direct","copy":{"en":{
          "settings":{"title":"Health is off","message":"Open Settings.","openLabel":"Open Settings","cancelLabel":"Not Now"},
          "denied":{"title":"Health is off","message":"Turn it on in Settings."},
          "unsupported":{"title":"No Health","message":"No Health app."}}}}}}
        """
}
