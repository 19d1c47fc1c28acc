import PreludeCore
import Testing

/// Issue 40's pure parts: the harm bound and budget, actions per finding, per-segment findings, the carve-out,
/// plan members in JSON, templates and the floor (docs/rollouts.md).
@Suite struct RolloutActionsTests {
    static let hour: Int64 = 3_600_000
    static let plan = RolloutMachineTests.plan

    static func arm(exposed: Int, granted: Int, denied: Int = 0, settings: Int = 0) -> FunnelCounts {
        FunnelCounts(
            exposed: exposed, systemGranted: granted, systemDenied: denied, settingsOpened: settings, granted: granted)
    }

    @Test func theHarmBoundIsTrivialBelowAHundredAndTightensWithData() {
        let few = RolloutHarmBound.extraDenied(
            control: Self.arm(exposed: 50, granted: 20, denied: 15), rollout: Self.arm(exposed: 60, granted: 20),
            minimumEffect: 0.02)
        #expect(few == 60, "each exposed install may have been harmed")
        let equal = RolloutHarmBound.extraDenied(
            control: Self.arm(exposed: 5000, granted: 2000, denied: 1500),
            rollout: Self.arm(exposed: 5000, granted: 2000, denied: 1500), minimumEffect: 0.02)
        #expect(equal > 0 && equal < 5000 * 0.05, "\(equal)")
        let harmful = RolloutHarmBound.extraDenied(
            control: Self.arm(exposed: 5000, granted: 2000, denied: 1500),
            rollout: Self.arm(exposed: 5000, granted: 1500, denied: 2000), minimumEffect: 0.02)
        #expect(harmful > 500, "at least the observed 500 extra denials: \(harmful)")
        #expect(harmful < 5000)
    }

    @Test func aBudgetStopsWhenTheBoundMayExceedItWhateverAlpha() throws {
        var plan = Self.plan
        plan.harmBudget = 40
        let state = try RolloutMachineTests.started()
        // Equal arms: no test fires, but 150 exposed installs could have cost up to the bound.
        let control = Self.arm(exposed: 150, granted: 60, denied: 45)
        let evaluation = RolloutMachine.evaluate(state, plan: plan, control: control, rollout: control, now: 1)
        #expect(evaluation.reading.harmBound > 40)
        #expect(evaluation.state.status == .rolledBack && evaluation.state.trippedBy == [.harmBudgetExceeded])
        plan.harmBudget = 1000
        let within = RolloutMachine.evaluate(state, plan: plan, control: control, rollout: control, now: 1)
        #expect(within.state.status == .running && within.reading.harmBudget == 1000)
        plan.harmBudget = 40
        plan.actions.harmBudget = .warn
        let warned = RolloutMachine.evaluate(state, plan: plan, control: control, rollout: control, now: 1)
        #expect(warned.state.status == .running && warned.state.handled == [.harmBudgetExceeded])
        #expect(warned.actions == [.warn([.harmBudgetExceeded], warned.reading)])
        let again = RolloutMachine.evaluate(warned.state, plan: plan, control: control, rollout: control, now: 2)
        #expect(again.actions.isEmpty, "a warning is given once")
    }

    @Test func noTrafficForTheGraceHoldsARunningStep() throws {
        let state = try RolloutMachineTests.started()
        let none = FunnelCounts()
        let early = RolloutMachine.evaluate(
            state, plan: Self.plan, control: none, rollout: none, now: 24 * Self.hour - 1)
        #expect(early.state.status == .running)
        let late = RolloutMachine.evaluate(state, plan: Self.plan, control: none, rollout: none, now: 24 * Self.hour)
        #expect(late.state.status == .paused && late.state.heldBy == [.noTraffic])
        #expect(late.actions == [.hold([.noTraffic], late.reading)])
        let resumed = try RolloutMachine.apply(.resume, to: late.state, now: 25 * Self.hour, rolloutExposed: 0)
        #expect(resumed.state.heldBy.isEmpty && resumed.state.handled == [.noTraffic])
    }

    @Test func mislabelledEventsAboveTheShareHold() throws {
        let state = try RolloutMachineTests.started()
        let counts = Self.arm(exposed: 150, granted: 60)
        func evaluate(_ mislabelled: Int, _ events: Int) -> RolloutMachine.Evaluation {
            RolloutMachine.evaluate(
                state, plan: Self.plan,
                observation: RolloutObservation(
                    control: counts, rollout: counts, mislabelledEvents: mislabelled, events: events), now: 1)
        }
        #expect(evaluate(10, 990).state.status == .running, "1 % mislabelled")
        #expect(evaluate(100, 900).state.heldBy == [.mislabelledEvents], "10 %")
        #expect(evaluate(20, 80).state.status == .running, "too few events to judge")
    }

    @Test func aSignalHoldsOrWarnsButNeverRollsBack() throws {
        let state = try RolloutMachineTests.started()
        let control = Self.arm(exposed: 1000, granted: 400, denied: 300, settings: 10)
        let confused = Self.arm(exposed: 1000, granted: 400, denied: 300, settings: 120)
        let warned = RolloutMachine.evaluate(state, plan: Self.plan, control: control, rollout: confused, now: 1)
        #expect(warned.state.status == .running && warned.reading.findings == [.settingsSignal])
        var holding = Self.plan
        holding.actions.signal = .hold
        #expect(holding.stoppingParts == 3, "a holding signal takes its share of α")
        let held = RolloutMachine.evaluate(state, plan: holding, control: control, rollout: confused, now: 1)
        #expect(held.state.heldBy == [.settingsSignal])
        var rolling = Self.plan
        rolling.actions.signal = .rollback
        #expect(rolling.problems().map(\.member) == ["actions/signal"])
    }

    @Test func aHarmedSegmentIsExcludedWhenItCanBeCarvedAndHeldOtherwise() throws {
        var plan = Self.plan
        plan.segmentGuard = [.locale, .osMajor]
        plan.actions.harm = .warn
        #expect(plan.segmentFamilySize == 32 && plan.stoppingParts == 3)
        let state = try RolloutMachineTests.started()
        let fine = Self.arm(exposed: 400, granted: 160, denied: 120)
        let hurt = Self.arm(exposed: 400, granted: 40, denied: 300)
        let segments = [
            RolloutSegmentCounts(segment: RolloutSegment(.locale, "de"), control: fine, rollout: hurt),
            RolloutSegmentCounts(segment: RolloutSegment(.locale, "en"), control: fine, rollout: fine),
            RolloutSegmentCounts(segment: RolloutSegment(.locale, "unknown"), control: fine, rollout: hurt),
        ]
        let observation = RolloutObservation(
            control: fine + fine + fine, rollout: hurt + fine + hurt, segments: segments)
        let carved = RolloutMachine.evaluate(
            state, plan: plan, observation: observation, now: 1, carvable: [.locale])
        #expect(carved.reading.harmedSegments == [RolloutSegment(.locale, "de")], "never `unknown`")
        #expect(carved.state.excludedSegments == [RolloutSegment(.locale, "de")])
        #expect(carved.state.status == .running)
        #expect(carved.actions.first == .excludeSegments([RolloutSegment(.locale, "de")], carved.reading))
        let again = RolloutMachine.evaluate(
            carved.state, plan: plan, observation: observation, now: 2, carvable: [.locale])
        #expect(!again.reading.segments.contains { $0.segment.value == "de" }, "not tested again")
        let held = RolloutMachine.evaluate(state, plan: plan, observation: observation, now: 1, carvable: [])
        #expect(held.state.status == .paused && held.state.heldBy.contains(.segmentHarm))
    }

    @Test func holmOverTheFixedFamilyIsStricterThanOneTest() {
        var plan = Self.plan
        plan.segmentGuard = [.locale]
        let control = Self.arm(exposed: 300, granted: 120)
        let rollout = Self.arm(exposed: 300, granted: 95)
        let rows = [RolloutSegmentCounts(segment: RolloutSegment(.locale, "fr"), control: control, rollout: rollout)]
        let reading = RolloutGuard.read(
            RolloutObservation(control: control, rollout: rollout, segments: rows), plan: plan)
        let raw = try! #require(
            SequentialTest.oneSidedPValue(
                treatmentSuccesses: 95, treatmentTrials: 300, controlSuccesses: 120, controlTrials: 300,
                mixingVariance: 0.0004, side: .lower))
        let adjusted = reading.segments[0].grantHarmAdjusted
        #expect(abs(adjusted - min(1, Double(plan.segmentFamilySize) * raw)) < 1e-12, "\(adjusted) vs \(raw)")
    }

    @Test func aCopyChangeCarvesALocaleOutAndKeepsItsOldTexts() throws {
        let change: JSONValue = try JSONValue(
            parsing:
                #"{"copy": {"en": {"prime": {"title": "New"}}, "de": {"prime": {"title": "Neu"}}, "de-AT": {"prime": {"title": "Neu!"}}}}"#
        )
        #expect(RolloutCarveOut.carvableDimensions(change) == [.locale])
        #expect(RolloutCarveOut.carvableDimensions(try JSONValue(parsing: #"{"style": "single"}"#)).isEmpty)
        let served = RolloutCarveOut.variantSet(change, excluding: [RolloutSegment(.locale, "de")])
        #expect(served["copy"]?.objectValue?.map(\.key) == ["en"])
        let base = try #require(
            PolicyValidator.validate(
                try JSONValue(
                    parsing: #"""
                        {"schemaVersion":1,"app":{"id":"tiny"},"features":{"health":{"strategy":"direct","copy":{"en":{
                          "prime":{"title":"Old"},
                          "settings":{"title":"Health is off","message":"Open Settings.","openLabel":"Open Settings","cancelLabel":"Not Now"},
                          "denied":{"title":"Health is off","message":"Turn it on in Settings."},
                          "unsupported":{"title":"No Health","message":"No Health app."}}}}}}
                        """#)
            ).document)
        let rule = try #require(
            RolloutCarveOut.keepRule(
                segment: RolloutSegment(.locale, "de"), change: change, base: base, feature: .health,
                experimentKey: "k"))
        #expect(rule["name"] == "k-keep-de" && rule["when"]?["locales"] == ["de"])
        #expect(rule["set"]?["copy"]?["de"]?["prime"]?["title"] == "Old")
    }

    @Test func plansKeepTheirNewMembersThroughJSON() throws {
        var plan = Self.plan
        plan.harmBudget = 200
        plan.segmentGuard = [.osMajor]
        plan.actions.sampleRatioMismatch = .rollback
        plan.noTrafficGraceMillis = 7_200_000
        plan.template = "standard"
        let decoded = RolloutPlan.decode(plan.jsonValue)
        #expect(decoded.plan == plan, "\(decoded.problems)")
        let bad = RolloutPlan.decode(
            try JSONValue(
                parsing:
                    #"{"steps": [{"percent": 5}], "harmBudget": 0, "segments": ["city"], "actions": {"harm": "shrug", "srm": "hold", "harmBudget": "exclude"}}"#
            ))
        #expect(
            Set(bad.problems.map(\.member))
                == ["harmBudget", "segments/0", "actions/harm", "actions/srm"], "\(bad.problems)")
        #expect(
            RolloutPlan.decode(try JSONValue(parsing: #"{"steps": [{"percent": 5}], "harmBudget": 1}"#)).plan != nil)
        let exclude = RolloutPlan.decode(
            try JSONValue(parsing: #"{"steps": [{"percent": 5}], "actions": {"harmBudget": "exclude"}}"#))
        #expect(exclude.problems.map(\.member) == ["actions/harmBudget"])
    }

    @Test func theFloorNamesEveryWeakerMember() throws {
        let floor = try JSONValue(
            parsing:
                #"{"harmBudget": 200, "minimumHoldSeconds": 600, "alpha": 0.05, "minimumEffect": 0.02, "segments": ["locale"], "actions": {"sampleRatioMismatch": "rollback"}, "requiresApproval": true}"#
        )
        var plan = RolloutPlan(
            steps: [.init(percent: 10, minimumHoldMillis: 60_000, minimumExposed: 0)], alpha: 0.01,
            minimumEffect: 0.05)
        #expect(
            Set(RolloutTemplate.floorProblems(plan, floor: floor).map(\.member)) == [
                "harmBudget", "steps/0/minimumHoldSeconds", "alpha", "minimumEffect", "segments",
                "actions/sampleRatioMismatch", "requiresApproval",
            ])
        plan = RolloutPlan(
            steps: [.init(percent: 10, minimumHoldMillis: 600_000, minimumExposed: 0)], alpha: 0.05,
            minimumEffect: 0.02, requiresApproval: true, harmBudget: 150, segmentGuard: [.locale],
            actions: RolloutActions(sampleRatioMismatch: .rollback))
        #expect(RolloutTemplate.floorProblems(plan, floor: floor).isEmpty)
        let merged = RolloutTemplate.merge(
            template: try #require(
                try JSONValue(parsing: #"{"alpha": 0.1, "actions": {"harm": "hold", "signal": "hold"}}"#).objectValue),
            request: try #require(try JSONValue(parsing: #"{"actions": {"harm": "rollback"}}"#).objectValue))
        #expect(merged["alpha"] == .double(0.1) && merged["actions"] == ["harm": "rollback", "signal": "hold"])
    }
}
