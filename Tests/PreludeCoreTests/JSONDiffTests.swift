import PreludeTestSupport
import Testing

@testable import PreludeCore

/// ``JSONDiff`` walks with one token stack and makes a pointer only for a change; these tests compare it with the
/// walk that makes a pointer for every value it visits (the diff as first written): the same changes, in the same
/// order, for edited demo policies and for generated documents.
@Suite struct JSONDiffTests {
    /// The diff written plainly: a ``JSONPointer`` for every member and element.
    static func plainChanges(from old: JSONValue, to new: JSONValue) -> [JSONDiff.Change] {
        var changes: [JSONDiff.Change] = []
        func equal(_ a: JSONValue, _ b: JSONValue) -> Bool {
            if let x = a.doubleValue, let y = b.doubleValue { return x == y }
            return a == b
        }
        func compare(_ old: JSONValue, _ new: JSONValue, at pointer: JSONPointer) {
            switch (old, new) {
            case (.object(let a), .object(let b)):
                for (key, value) in a {
                    if let other = b[key] {
                        compare(value, other, at: pointer.appending(key))
                    } else {
                        changes.append(.init(op: .remove, pointer: pointer.appending(key), from: value, to: nil))
                    }
                }
                for (key, value) in b where a[key] == nil {
                    changes.append(.init(op: .add, pointer: pointer.appending(key), from: nil, to: value))
                }
            case (.array(let a), .array(let b)):
                for index in 0..<min(a.count, b.count) { compare(a[index], b[index], at: pointer.appending(index)) }
                if a.count > b.count {
                    for index in (b.count..<a.count).reversed() {
                        changes.append(.init(op: .remove, pointer: pointer.appending(index), from: a[index], to: nil))
                    }
                }
                if b.count > a.count {
                    for index in a.count..<b.count {
                        changes.append(.init(op: .add, pointer: pointer.appending(index), from: nil, to: b[index]))
                    }
                }
            default:
                if !equal(old, new) { changes.append(.init(op: .replace, pointer: pointer, from: old, to: new)) }
            }
        }
        compare(old, new, at: .root)
        return changes
    }

    /// A generated value: objects and arrays a few levels deep, member names with `/` and `~`, numbers that are
    /// equal as integer and double.
    static func value(_ random: inout SplitMix64, depth: Int) -> JSONValue {
        switch random.below(depth > 3 ? 5 : 7) {
        case 0: return .null
        case 1: return .bool(random.chance(0.5))
        case 2: return random.chance(0.5) ? .integer(random.below(4)) : .double(Double(random.below(4)))
        case 3, 4: return .string(["a", "b", "x/y", "~"][random.below(4)])
        case 5:
            return .array((0..<random.below(4)).map { _ in value(&random, depth: depth + 1) })
        default:
            var object = JSONObject()
            for _ in 0..<random.below(5) {
                object[["k", "m", "a/b", "t~0", "z"][random.below(5)]] = value(&random, depth: depth + 1)
            }
            return .object(object)
        }
    }

    /// `value` with a few random edits: values replaced, members removed or added, arrays shortened or grown.
    static func edited(_ value: JSONValue, _ random: inout SplitMix64) -> JSONValue {
        switch value {
        case .object(var object):
            for key in object.keys where random.chance(0.3) {
                object[key] = random.chance(0.3) ? nil : edited(object[key]!, &random)
            }
            if random.chance(0.1) { object["added"] = .integer(random.below(3)) }
            return .object(object)
        case .array(var elements):
            for index in elements.indices where random.chance(0.3) {
                elements[index] = edited(elements[index], &random)
            }
            if random.chance(0.1), !elements.isEmpty { elements.removeLast() }
            if random.chance(0.1) { elements.append("new") }
            return .array(elements)
        default:
            return random.chance(0.3) ? Self.value(&random, depth: 4) : value
        }
    }

    @Test func findsTheChangesThePlainWalkFinds() throws {
        var random = SplitMix64(state: 0xD1FF)
        let demo = try PolicyFixtures.demo().jsonValue
        var pairs: [(JSONValue, JSONValue)] = [(demo, demo), (.null, demo), (demo, ["app": 1])]
        for _ in 0..<60 { pairs.append((demo, Self.edited(demo, &random))) }
        for _ in 0..<400 {
            let old = Self.value(&random, depth: 0)
            pairs.append((old, random.chance(0.5) ? Self.edited(old, &random) : Self.value(&random, depth: 0)))
        }
        var changed = 0
        for (old, new) in pairs {
            let changes = JSONDiff.changes(from: old, to: new)
            #expect(changes == Self.plainChanges(from: old, to: new))
            if !changes.isEmpty { changed += 1 }
        }
        // The generated pairs do differ, mostly: the comparison covers adds, removals and replacements.
        #expect(changed > pairs.count / 2)
    }
}
