import PreludeTestSupport
import Testing

@testable import PreludeCore

/// ``JSONMerge``: the three-way merge a change request's rebase makes. Examples first (the partial promotion of
/// issue 35), then properties over seeded generated documents: a patch re-applied to its own base gives the
/// document it was made from, disjoint edits commute and both survive, and a conflict is reported exactly where
/// both sides changed the same member differently.
@Suite struct JSONMergeTests {
    static func parse(_ text: String) throws -> JSONValue { try JSONValue(parsing: text) }

    static let base: JSONValue = [
        "features": [
            "camera": ["copy": ["en": ["title": "Scan documents", "body": "We read receipts."]], "cadence": 3],
            "microphone": ["copy": ["en": ["title": "Dictate"]], "cadence": 2],
        ],
        "experiments": [["id": "a", "feature": "camera"]],
    ]

    static func with(_ document: JSONValue, _ pointer: JSONPointer, _ value: JSONValue?) -> JSONValue {
        let change = JSONDiff.Change(
            op: value == nil ? .remove : .replace, pointer: pointer, from: document[pointer], to: value)
        guard case .merged(let result) = JSONMerge.apply([change], onto: document) else {
            preconditionFailure("cannot set \(pointer)")
        }
        return result
    }

    @Test func aPatchReappliedToAMovedRevisionKeepsTheUnrelatedChange() throws {
        let ours = Self.with(Self.base, "/features/camera/copy/en/title", "Scan receipts")
        let theirs = Self.with(Self.base, "/features/microphone/cadence", 5)
        let merged = JSONMerge.merge(base: Self.base, ours: ours, theirs: theirs)
        let expected = Self.with(theirs, "/features/camera/copy/en/title", "Scan receipts")
        #expect(merged == .merged(expected))
    }

    @Test func theSameChangeOnBothSidesIsNoConflict() {
        let ours = Self.with(Self.base, "/features/camera/copy/en/title", "Scan receipts")
        #expect(JSONMerge.merge(base: Self.base, ours: ours, theirs: ours) == .merged(ours))
    }

    @Test func aDifferentChangeOfTheSameMemberIsAConflictNamingItsPointer() {
        let ours = Self.with(Self.base, "/features/camera/copy/en/title", "Scan receipts")
        let theirs = Self.with(
            Self.with(Self.base, "/features/camera/copy/en/title", "Scan now"), "/features/microphone/cadence", 5)
        let outcome = JSONMerge.merge(base: Self.base, ours: ours, theirs: theirs)
        #expect(
            outcome
                == .conflicts([
                    JSONMerge.Conflict(
                        pointer: "/features/camera/copy/en/title", base: .value("Scan documents"),
                        ours: .value("Scan receipts"), theirs: .value("Scan now"))
                ]))
    }

    @Test func anEditInsideAMemberTheOtherSideRemovedIsAConflict() {
        let edited = Self.with(Self.base, "/features/camera/copy/en/title", "Scan receipts")
        let removed = Self.with(Self.base, "/features/camera", nil)
        let conflicts = { (outcome: JSONMerge.Outcome) -> [String] in
            guard case .conflicts(let found) = outcome else { return [] }
            return found.map(\.pointer.description)
        }
        #expect(
            conflicts(JSONMerge.merge(base: Self.base, ours: edited, theirs: removed)) == [
                "/features/camera/copy/en/title"
            ])
        #expect(conflicts(JSONMerge.merge(base: Self.base, ours: removed, theirs: edited)) == ["/features/camera"])
    }

    @Test func arraysAreWholeValues() {
        let ours = Self.with(Self.base, "/experiments", [["id": "a", "feature": "camera"], ["id": "b"]])
        #expect(JSONMerge.patch(from: Self.base, to: ours).map(\.pointer) == ["/experiments"])
        let theirs = Self.with(Self.base, "/experiments", [["id": "a", "feature": "microphone"]])
        guard case .conflicts(let conflicts) = JSONMerge.merge(base: Self.base, ours: ours, theirs: theirs) else {
            Issue.record("an array both sides changed must conflict")
            return
        }
        #expect(conflicts.map(\.pointer) == ["/experiments"])
    }

    @Test func aStoredPatchParsesBack() throws {
        let ours = Self.with(
            Self.with(Self.base, "/features/camera/copy/en/title", .null), "/features/microphone", nil)
        let patch = JSONMerge.patch(from: Self.base, to: ours)
        let stored = try Self.parse(JSONDiff.jsonValue(patch).serialized())
        #expect(JSONMerge.patch(parsing: stored) == patch)
        #expect(JSONMerge.patch(parsing: ["not a change"]) == nil)
    }

    // MARK: - Properties

    /// Member names: never array indices, so a pointer means one thing whatever the container's kind.
    static let keys = ["a", "b", "c", "d", "e/f", "g~h"]

    static func scalar(_ rng: inout SplitMix64) -> JSONValue {
        switch rng.below(6) {
        case 0: .null
        case 1: .bool(rng.chance(0.5))
        case 2: .integer(rng.below(4))
        case 3: .double(Double(rng.below(4)) + 0.5)
        case 4: .array((0..<rng.below(3)).map { _ in .integer(rng.below(3)) })
        default: .string(["x", "y", "z"][rng.below(3)])
        }
    }

    static func document(depth: Int, _ rng: inout SplitMix64) -> JSONValue {
        var object = JSONObject()
        for key in keys where rng.chance(0.6) {
            object[key] = depth > 0 && rng.chance(0.5) ? document(depth: depth - 1, &rng) : scalar(&rng)
        }
        return .object(object)
    }

    /// Every pointer in `document` (members only; arrays are values), root excluded.
    static func pointers(_ document: JSONValue, at pointer: JSONPointer = .root) -> [JSONPointer] {
        guard case .object(let object) = document else { return [] }
        return object.flatMap { member in
            [pointer.appending(member.key)] + pointers(member.value, at: pointer.appending(member.key))
        }
    }

    /// `document` with one to three random edits: a member replaced (by a scalar or an object), removed or added.
    static func edited(_ original: JSONValue, _ rng: inout SplitMix64) -> JSONValue {
        var result = original
        for _ in 0...rng.below(3) {
            let existing = pointers(result)
            let containers = [JSONPointer.root] + existing.filter { result[$0]?.objectValue != nil }
            if !existing.isEmpty, rng.chance(0.6) {
                let target = existing[rng.below(existing.count)]
                result = with(
                    result, target, rng.chance(0.3) ? nil : rng.chance(0.7) ? scalar(&rng) : document(depth: 1, &rng))
            } else {
                let parent = containers[rng.below(containers.count)]
                let key = keys[rng.below(keys.count)]
                result = with(result, parent.appending(key), scalar(&rng))
            }
        }
        return result
    }

    static func related(_ a: JSONPointer, _ b: JSONPointer) -> Bool {
        a.tokens.starts(with: b.tokens) || b.tokens.starts(with: a.tokens)
    }

    static func cases(seed: UInt64, count: Int = 400) -> [(base: JSONValue, ours: JSONValue, theirs: JSONValue)] {
        var rng = SplitMix64(state: seed)
        return (0..<count).map { _ in
            let base = document(depth: 3, &rng)
            return (base, edited(base, &rng), edited(base, &rng))
        }
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func aPatchMergedOntoItsOwnBaseGivesItsDocument(seed: UInt64) {
        for (base, ours, _) in Self.cases(seed: seed) {
            guard case .merged(let result) = JSONMerge.merge(base: base, ours: ours, theirs: base) else {
                Issue.record("conflict merging onto its own base: \(base) → \(ours)")
                continue
            }
            #expect(JSONDiff.equal(result, ours), "\(base) → \(ours) gave \(result)")
        }
    }

    @Test(arguments: [4, 5, 6] as [UInt64])
    func disjointEditsCommuteAndBothSurvive(seed: UInt64) {
        var disjoint = 0
        for (base, ours, theirs) in Self.cases(seed: seed) {
            let mine = JSONMerge.patch(from: base, to: ours)
            let other = JSONMerge.patch(from: base, to: theirs)
            guard !mine.contains(where: { o in other.contains { Self.related(o.pointer, $0.pointer) } }) else {
                continue
            }
            disjoint += 1
            guard case .merged(let one) = JSONMerge.merge(base: base, ours: ours, theirs: theirs),
                case .merged(let two) = JSONMerge.merge(base: base, ours: theirs, theirs: ours)
            else {
                Issue.record("disjoint edits conflicted: \(base) → \(ours) / \(theirs)")
                continue
            }
            #expect(JSONDiff.equal(one, two), "\(base) → \(ours) / \(theirs)")
            for change in mine + other {
                #expect(JSONMerge.slot(in: one, at: change.pointer) == (change.to.map(JSONMerge.Slot.value) ?? .absent))
            }
        }
        // The generator must exercise the property, not skip it.
        #expect(disjoint > 100)
    }

    @Test(arguments: [7, 8, 9] as [UInt64])
    func aConflictIsReportedExactlyWhereBothSidesChangedTheSameMemberDifferently(seed: UInt64) {
        var conflicted = 0
        for (base, ours, theirs) in Self.cases(seed: seed) {
            let mine = JSONMerge.patch(from: base, to: ours)
            let other = JSONMerge.patch(from: base, to: theirs)
            // Theirs changed the member at p when one of its changes is at p, inside it or around it; differently
            // when the two sides now hold different things there.
            let expected = mine.map(\.pointer).filter { pointer in
                other.contains { Self.related($0.pointer, pointer) }
                    && JSONMerge.slot(in: theirs, at: pointer) != JSONMerge.slot(in: ours, at: pointer)
            }
            switch JSONMerge.merge(base: base, ours: ours, theirs: theirs) {
            case .merged(let result):
                #expect(expected.isEmpty, "missed conflicts at \(expected): \(base) → \(ours) / \(theirs)")
                // What theirs changed and the patch did not touch survives.
                for change in other where !mine.contains(where: { Self.related($0.pointer, change.pointer) }) {
                    #expect(
                        JSONMerge.slot(in: result, at: change.pointer) == JSONMerge.slot(in: theirs, at: change.pointer)
                    )
                }
            case .conflicts(let conflicts):
                conflicted += 1
                #expect(conflicts.map(\.pointer) == expected, "\(base) → \(ours) / \(theirs)")
            }
        }
        #expect(conflicted > 20)
    }
}
