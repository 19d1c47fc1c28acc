import Testing

@testable import PreludeCore

@Suite struct PolicyValidatorTests {
    /// The validation builds the canonical form once (to check stored strings) and hands it back: it is the
    /// document's `jsonValue`, members in the same order, and there is none without a document.
    @Test func handsBackTheCanonicalFormOfAValidDocument() throws {
        let validation = PolicyValidator.validate(text: try PolicyFixtures.demoText())
        let document = try #require(validation.document)
        let canonical = try #require(validation.canonicalJSON)
        #expect(canonical.serialized() == document.jsonValue.serialized())
        let invalid = PolicyValidator.validate(try PolicyFixtures.minimal(patchedWith: #"{"schemaVersion": 7}"#))
        #expect(invalid.document == nil && invalid.canonicalJSON == nil)
    }

    @Test func minimalDocumentIsValid() throws {
        let validation = PolicyValidator.validate(try PolicyFixtures.minimal())
        #expect(validation.problems.map(\.description) == [])
        #expect(validation.document?.app.id == "test")
    }

    @Test func shortDocumentWithDefaultsIsValid() throws {
        let text = """
            {"schemaVersion":1,"app":{"id":"tiny"},"features":{"health":{"strategy":"direct","copy":{"en":{
              "settings":{"title":"Health is off","message":"Open Settings.","openLabel":"Open Settings","cancelLabel":"Not Now"},
              "denied":{"title":"Health is off","message":"Turn it on in Settings."},
              "unsupported":{"title":"No Health","message":"This device has no Health app."}}}}}}
            """
        let validation = PolicyValidator.validate(text: text)
        #expect(validation.problems.map(\.description) == [])
        #expect(validation.document?.app.name == "tiny")
        #expect(validation.document?.app.defaultLocale == LocaleTag("en"))
    }

    /// Each row: a merge patch over the minimal valid document, the pointer and code that must be reported.
    @Test(
        arguments: [
            ("{\"schemaVersion\": 2}", "/schemaVersion", ValidationProblem.Code.unsupportedSchemaVersion),
            ("{\"schemaVersion\": \"1\"}", "/schemaVersion", .typeMismatch),
            ("{\"schemaVersion\": null}", "/schemaVersion", .missingMember),
            ("{\"app\": {\"id\": \"a b\"}}", "/app/id", .invalidAppId),
            ("{\"app\": {\"id\": null}}", "/app/id", .missingMember),
            ("{\"app\": {\"name\": \" \"}}", "/app/name", .invalidValue),
            ("{\"app\": {\"defaultLocale\": \"e\"}}", "/app/defaultLocale", .invalidLocale),
            ("{\"app\": {\"bundle\": \"x\"}}", "/app/bundle", .unknownMember),
            ("{\"extra\": 1}", "/extra", .unknownMember),
            ("{\"features\": []}", "/features", .typeMismatch),
            ("{\"features\": {\"camra\": {}}}", "/features/camra", .unknownFeature),
            (
                "{\"features\": {\"microphone\": {\"strategy\": \"button\"}}}", "/features/microphone/strategy",
                .unsupportedStrategy
            ),
            ("{\"defaults\": {\"strategy\": \"button\"}}", "/defaults/strategy", .unsupportedStrategy),
            // Ask less exists only where the catalogue has a permissionless path (docs/catalogue.md).
            (
                "{\"features\": {\"microphone\": {\"strategy\": \"permissionless\"}}}",
                "/features/microphone/strategy", .unsupportedStrategy
            ),
            ("{\"defaults\": {\"strategy\": \"permissionless\"}}", "/defaults/strategy", .unsupportedStrategy),
            (
                "{\"features\": {\"microphone\": {\"strategy\": \"sometimes\"}}}", "/features/microphone/strategy",
                .invalidValue
            ),
            ("{\"features\": {\"microphone\": {\"style\": 2}}}", "/features/microphone/style", .typeMismatch),
            (
                "{\"features\": {\"microphone\": {\"partial\": {\"limited\": \"upgrade\"}}}}",
                "/features/microphone/partial/limited", .unsupportedPartialStatus
            ),
            (
                "{\"features\": {\"microphone\": {\"partial\": {\"granted\": \"upgrade\"}}}}",
                "/features/microphone/partial/granted", .unknownMember
            ),
            (
                "{\"features\": {\"photos\": {\"partial\": {\"limited\": \"contactAccessButton\"}}}}",
                "/features/photos/partial/limited", .unsupportedPartialAction
            ),
            (
                "{\"defaults\": {\"partial\": {\"limited\": \"limitedPicker\"}}}", "/defaults/partial/limited",
                .unsupportedPartialAction
            ),
            (
                "{\"features\": {\"microphone\": {\"partial\": {\"limited\": \"later\"}}}}",
                "/features/microphone/partial/limited", .invalidValue
            ),
            (
                "{\"features\": {\"microphone\": {\"copy\": {\"en\": {\"prime\": {\"title\": null}}}}}}",
                "/features/microphone/copy/en/prime/title", .missingCopy
            ),
            (
                "{\"defaults\": {\"copy\": {\"en\": {\"settings\": {\"openLabel\": null}}}}}",
                "/features/microphone/copy/en/settings/openLabel", .missingCopy
            ),
            (
                "{\"features\": {\"microphone\": {\"style\": \"twoButton\"}}}",
                "/features/microphone/copy/en/prime/cancelLabel", .missingCopy
            ),
            (
                "{\"features\": {\"microphone\": {\"copy\": {\"en\": {\"prime\": {\"title\": \"Hi {user}\"}}}}}}",
                "/features/microphone/copy/en/prime/title", .unknownPlaceholder
            ),
            (
                "{\"features\": {\"microphone\": {\"copy\": {\"en\": {\"prime\": {\"title\": \"Hi {appName\"}}}}}}",
                "/features/microphone/copy/en/prime/title", .malformedPlaceholder
            ),
            (
                "{\"features\": {\"microphone\": {\"copy\": {\"fr\": {\"prime\": {\"title\": \"  \"}}}}}}",
                "/features/microphone/copy/fr/prime/title", .emptyCopy
            ),
            (
                "{\"features\": {\"microphone\": {\"copy\": {\"en-\": {}}}}}", "/features/microphone/copy/en-",
                .invalidLocale
            ),
            (
                "{\"features\": {\"microphone\": {\"copy\": {\"EN\": {}}}}}", "/features/microphone/copy/EN",
                .invalidLocale
            ),
            (
                "{\"features\": {\"microphone\": {\"copy\": {\"en\": {\"prime\": {\"body\": \"x\"}}}}}}",
                "/features/microphone/copy/en/prime/body", .unknownMember
            ),
            (
                "{\"features\": {\"microphone\": {\"copy\": {\"en\": {\"denied\": {\"openLabel\": \"x\"}}}}}}",
                "/features/microphone/copy/en/denied/openLabel", .unknownMember
            ),
            (
                "{\"features\": {\"microphone\": {\"copy\": {\"en\": {\"popup\": {}}}}}}",
                "/features/microphone/copy/en/popup", .unknownMember
            ),
            (
                "{\"features\": {\"microphone\": {\"copy\": {\"en\": {\"prime\": {\"title\": 3}}}}}}",
                "/features/microphone/copy/en/prime/title", .typeMismatch
            ),
            (
                "{\"features\": {\"microphone\": {\"cadence\": {\"prime\": {\"minIntervalHours\": 9000}}}}}",
                "/features/microphone/cadence/prime/minIntervalHours", .cadenceOutOfRange
            ),
            (
                "{\"features\": {\"microphone\": {\"cadence\": {\"settings\": {\"backoff\": 0.5}}}}}",
                "/features/microphone/cadence/settings/backoff", .cadenceOutOfRange
            ),
            (
                "{\"features\": {\"microphone\": {\"cadence\": {\"upgrade\": {\"maxShows\": 21}}}}}",
                "/features/microphone/cadence/upgrade/maxShows", .cadenceOutOfRange
            ),
            (
                "{\"features\": {\"microphone\": {\"cadence\": {\"prime\": {\"maxShows\": 2.5}}}}}",
                "/features/microphone/cadence/prime/maxShows", .typeMismatch
            ),
            (
                "{\"features\": {\"microphone\": {\"cadence\": {\"often\": {}}}}}",
                "/features/microphone/cadence/often", .unknownMember
            ),
            (
                "{\"features\": {\"microphone\": {\"settings\": {\"delayMs\": 20000}}}}",
                "/features/microphone/settings/delayMs", .settingsOutOfRange
            ),
            (
                "{\"features\": {\"microphone\": {\"settings\": {\"leaveScreenFirst\": \"yes\"}}}}",
                "/features/microphone/settings/leaveScreenFirst", .typeMismatch
            ),
            (
                "{\"features\": {\"tracking\": {\"cadence\": {\"settings\": {\"maxShows\": 1}}}}}",
                "/features/tracking/cadence/settings", .cadenceNotAllowed
            ),
            (
                "{\"features\": {\"microphone\": {\"targeting\": [{\"name\": \"x\", \"when\": {\"os\": \"banana\"}, \"set\": {}}]}}}",
                "/features/microphone/targeting/0/when/os", .invalidVersionRange
            ),
            (
                "{\"features\": {\"microphone\": {\"targeting\": [{\"name\": \"x\", \"when\": {\"appVersion\": \">=1..2\"}, \"set\": {}}]}}}",
                "/features/microphone/targeting/0/when/appVersion", .invalidVersionRange
            ),
            (
                "{\"features\": {\"microphone\": {\"targeting\": [{\"name\": \"x\", \"when\": {\"locales\": [\"12\"]}, \"set\": {}}]}}}",
                "/features/microphone/targeting/0/when/locales/0", .invalidLocale
            ),
            (
                "{\"features\": {\"microphone\": {\"targeting\": [{\"name\": \"x\", \"when\": {\"platform\": \"android\"}, \"set\": {}}]}}}",
                "/features/microphone/targeting/0/when/platform", .invalidValue
            ),
            (
                "{\"features\": {\"microphone\": {\"targeting\": [{\"name\": \"x\", \"set\": {}}, {\"name\": \"x\", \"set\": {}}]}}}",
                "/features/microphone/targeting/1/name", .duplicateRuleName
            ),
            (
                "{\"features\": {\"microphone\": {\"targeting\": [{\"name\": \"\", \"set\": {}}]}}}",
                "/features/microphone/targeting/0/name", .emptyName
            ),
            (
                "{\"features\": {\"microphone\": {\"targeting\": [{\"name\": \"x\"}]}}}",
                "/features/microphone/targeting/0/set", .missingMember
            ),
            (
                "{\"features\": {\"microphone\": {\"targeting\": [{\"name\": \"x\", \"set\": {\"cadence\": {\"prime\": {\"backoff\": 11}}}}]}}}",
                "/features/microphone/targeting/0/set/cadence/prime/backoff", .cadenceOutOfRange
            ),
            (
                "{\"features\": {\"locationWhenInUse\": {\"targeting\": [{\"name\": \"old\", \"when\": {\"os\": \"<15\"}, \"set\": {\"strategy\": \"button\"}}]}}}",
                "/features/locationWhenInUse/targeting/0/set/strategy", .strategyNeedsNewerOS
            ),
            (
                "{\"features\": {\"contacts\": {\"targeting\": [{\"name\": \"new\", \"when\": {\"os\": \">=18\"}, \"set\": {\"strategy\": \"button\"}}]}}}",
                "/features/contacts/targeting/0/set/copy/en/button/caption", .missingCopy
            ),
            (
                "{\"experiments\": [{\"key\": \"mic\", \"feature\": \"microphone\", \"coverage\": 2, \"variants\": [{\"name\": \"a\", \"weight\": 100}]}]}",
                "/experiments/0/coverage", .coverageOutOfRange
            ),
            (
                "{\"experiments\": [{\"key\": \"mic\", \"feature\": \"microphone\", \"alpha\": 0.5, \"variants\": [{\"name\": \"a\", \"weight\": 100}]}]}",
                "/experiments/0/alpha", .analysisSettingOutOfRange
            ),
            (
                "{\"experiments\": [{\"key\": \"mic\", \"feature\": \"microphone\", \"minimumEffect\": 0, \"variants\": [{\"name\": \"a\", \"weight\": 100}]}]}",
                "/experiments/0/minimumEffect", .analysisSettingOutOfRange
            ),
            (
                "{\"experiments\": [{\"key\": \"mic\", \"feature\": \"microphone\", \"alpha\": \"0.05\", \"variants\": [{\"name\": \"a\", \"weight\": 100}]}]}",
                "/experiments/0/alpha", .typeMismatch
            ),
            (
                "{\"experiments\": [{\"key\": \"mic\", \"feature\": \"microphone\", \"variants\": [{\"name\": \"a\", \"weight\": 60}, {\"name\": \"b\", \"weight\": 30}]}]}",
                "/experiments/0/variants", .weightsDoNotSum
            ),
            (
                "{\"experiments\": [{\"key\": \"mic\", \"feature\": \"microphone\", \"variants\": [{\"name\": \"a\", \"weight\": -5}, {\"name\": \"b\", \"weight\": 105}]}]}",
                "/experiments/0/variants/0/weight", .invalidWeight
            ),
            (
                "{\"experiments\": [{\"key\": \"mic\", \"feature\": \"microphone\", \"variants\": [{\"name\": \"a\", \"weight\": 50}, {\"name\": \"a\", \"weight\": 50}]}]}",
                "/experiments/0/variants/1/name", .duplicateVariantName
            ),
            (
                "{\"experiments\": [{\"key\": \"mic\", \"feature\": \"microphone\", \"variants\": [{\"name\": \"a\"}]}]}",
                "/experiments/0/variants/0/weight", .missingMember
            ),
            (
                "{\"experiments\": [{\"key\": \"mic\", \"feature\": \"microphone\", \"variants\": []}]}",
                "/experiments/0/variants", .noVariants
            ),
            (
                "{\"experiments\": [{\"key\": \"x\", \"feature\": \"nope\", \"variants\": []}]}",
                "/experiments/0/feature", .experimentUnknownFeature
            ),
            (
                "{\"experiments\": [{\"key\": \"x\", \"feature\": \"camera\", \"variants\": [{\"name\": \"a\", \"weight\": 100}]}]}",
                "/experiments/0/feature", .experimentUnknownFeature
            ),
            (
                "{\"experiments\": [{\"key\": \"x\", \"feature\": \"microphone\", \"variants\": [{\"name\": \"a\", \"weight\": 100}]}, {\"key\": \"x\", \"feature\": \"microphone\", \"variants\": [{\"name\": \"a\", \"weight\": 100}]}]}",
                "/experiments/1/key", .duplicateExperimentKey
            ),
            (
                "{\"experiments\": [{\"key\": \"x\", \"feature\": \"microphone\", \"variants\": [{\"name\": \"a\", \"weight\": 100}]}, {\"key\": \"y\", \"feature\": \"microphone\", \"variants\": [{\"name\": \"a\", \"weight\": 100}]}]}",
                "/experiments/1/feature", .duplicateExperimentFeature
            ),
            (
                "{\"experiments\": [{\"feature\": \"microphone\", \"variants\": [{\"name\": \"a\", \"weight\": 100}]}]}",
                "/experiments/0/key", .missingMember
            ),
            (
                "{\"experiments\": [{\"key\": \"mic\", \"feature\": \"microphone\", \"variants\": [{\"name\": \"a\", \"weight\": 100, \"set\": {\"strategy\": \"button\"}}]}]}",
                "/experiments/0/variants/0/set/strategy", .unsupportedStrategy
            ),
            (
                "{\"experiments\": [{\"key\": \"mic\", \"feature\": \"microphone\", \"variants\": [{\"name\": \"a\", \"weight\": 100, \"set\": {\"strategy\": \"permissionless\"}}]}]}",
                "/experiments/0/variants/0/set/strategy", .unsupportedStrategy
            ),
            (
                "{\"experiments\": [{\"key\": \"mic\", \"feature\": \"microphone\", \"variants\": [{\"name\": \"a\", \"weight\": 100, \"set\": {\"style\": \"twoButton\"}}]}]}",
                "/experiments/0/variants/0/set/copy/en/prime/cancelLabel", .missingCopy
            ),
        ] as [(String, String, ValidationProblem.Code)])
    func reportsProblemWithPointer(patch: String, pointer: String, code: ValidationProblem.Code) throws {
        let validation = PolicyValidator.validate(try PolicyFixtures.minimal(patchedWith: patch))
        #expect(!validation.isValid)
        #expect(validation.document == nil)
        let found = validation.problems.contains { $0.pointer.description == pointer && $0.code == code }
        #expect(found, "expected \(pointer) \(code.rawValue); got \(validation.problems.map(\.description))")
    }

    @Test func reportsAMissingAppOnce() throws {
        let problems = PolicyValidator.validate(try PolicyFixtures.minimal(patchedWith: "{\"app\": null}")).problems
        #expect(problems.map(\.description) == ["/app: member.missing: app is required, with at least an id."])
    }

    @Test func reportsEveryProblemAtOnce() throws {
        let patch = """
            {"schemaVersion": 3, "app": {"id": "bad id"}, "features": {"camra": {},
             "microphone": {"style": "fancy", "cadence": {"prime": {"maxShows": 99}}}},
             "experiments": [{"key": "mic", "feature": "microphone", "coverage": -1, "variants": [{"name": "a", "weight": 10}]}]}
            """
        let problems = PolicyValidator.validate(try PolicyFixtures.minimal(patchedWith: patch)).problems
        let codes = Set(problems.map(\.code))
        #expect(
            codes.isSuperset(of: [
                .unsupportedSchemaVersion, .invalidAppId, .unknownFeature, .invalidValue, .cadenceOutOfRange,
                .coverageOutOfRange, .weightsDoNotSum,
            ]))
        #expect(problems == problems.sorted())
    }

    @Test(arguments: ["{\"schemaVersion\": 1,", "{\"schemaVersion\": 1, \"schemaVersion\": 1}", "", "[1]"])
    func reportsInvalidJSONOrWrongTopLevel(text: String) {
        let validation = PolicyValidator.validate(text: text)
        #expect(!validation.isValid)
        let problem = validation.problems.first
        #expect(problem?.pointer == .root)
        #expect(problem?.code == .invalidJSON || problem?.code == .typeMismatch)
    }

    @Test func rendersProblemsAsJSON() throws {
        let validation = PolicyValidator.validate(try PolicyFixtures.minimal(patchedWith: "{\"schemaVersion\": 2}"))
        let json = validation.jsonValue
        #expect(json["valid"] == .bool(false))
        #expect(json["problems"] == nil)
        #expect(json["errors"]?[0]?["pointer"] == "/schemaVersion")
        #expect(json["errors"]?[0]?["code"] == "schemaVersion.unsupported")
        #expect(json["errors"]?[0]?["detail"]?.stringValue?.hasPrefix("schemaVersion 2 is not supported") == true)
        #expect(validation.problems[0].description.hasPrefix("/schemaVersion: schemaVersion.unsupported: "))
    }
}
