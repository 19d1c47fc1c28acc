/// A three-way merge of JSON documents: what re-basing a change request does (docs/change-management.md,
/// "Rebase: a three-way merge").
///
/// A change records its *patch*, the pointer-level changes it makes to the document it was based on
/// (``patch(from:to:)``: a ``JSONDiff`` with arrays as whole values, each change carrying the base's value and its
/// own). ``apply(_:onto:)`` re-applies the patch to another revision of that document (*theirs*, the live one), one
/// pointer at a time:
///
/// - theirs still holds the base's value there: the patch's value is set (theirs did not touch that member);
/// - theirs already holds the patch's value: nothing to do (both sides made the same change);
/// - anything else is a **conflict**: both sides changed the same member, differently. Nothing is merged then.
///
/// Nothing else of theirs is touched, so every change the patch does not make survives. "The same member" is judged
/// on values, so a change of a member's descendant or ancestor on the other side (an edited title inside a feature
/// the patch removes; a removed feature whose title the patch edits) is a conflict at the patch's pointer too.
/// A patch's pointers are prefix-free (a diff descends only into objects both sides have), so its changes are
/// independent and their order does not matter.
package enum JSONMerge {
    /// What a document holds at a pointer.
    package enum Slot: Sendable, CustomStringConvertible {
        /// A value.
        case value(JSONValue)
        /// Nothing, in a container that exists: a member or element may be added there.
        case absent
        /// Nothing, and no container to add to (a parent is missing or is not an object or array).
        case unreachable

        /// The value, when there is one.
        package var value: JSONValue? {
            if case .value(let value) = self { return value }
            return nil
        }

        /// A short rendering for messages: a scalar as JSON (at most 80 characters), a container by its kind.
        package var description: String {
            switch self {
            case .absent: return "absent"
            case .unreachable: return "absent (its parent is gone)"
            case .value(.object): return "an object"
            case .value(.array(let elements)): return "an array of \(elements.count)"
            case .value(let scalar):
                let text = scalar.serialized()
                return text.count <= 80 ? text : String(text.prefix(77)) + "…"
            }
        }
    }

    /// A member both sides changed, differently.
    package struct Conflict: Sendable, Equatable {
        /// Where.
        package var pointer: JSONPointer
        /// What the base held.
        package var base: Slot
        /// What the patch sets.
        package var ours: Slot
        /// What theirs holds.
        package var theirs: Slot

        /// A conflict with these members.
        package init(pointer: JSONPointer, base: Slot, ours: Slot, theirs: Slot) {
            self.pointer = pointer
            self.base = base
            self.ours = ours
            self.theirs = theirs
        }
    }

    /// The result of a merge.
    package enum Outcome: Sendable, Equatable {
        /// Theirs with the patch applied.
        case merged(JSONValue)
        /// Every pointer where both sides changed the same member differently, in the patch's order; nothing was
        /// merged.
        case conflicts([Conflict])
    }

    /// The patch turning `base` into `ours`: every change at the deepest object member that differs, arrays as
    /// whole values (an index means another element once either side inserted or removed one).
    package static func patch(from base: JSONValue, to ours: JSONValue) -> [JSONDiff.Change] {
        JSONDiff.changes(from: base, to: ours, arrays: .whole)
    }

    /// `patch` re-applied to `theirs` (see the type's documentation): the merged document, or every conflict.
    package static func apply(_ patch: [JSONDiff.Change], onto theirs: JSONValue) -> Outcome {
        var result = theirs
        var conflicts: [Conflict] = []
        for change in patch {
            let base = change.from.map(Slot.value) ?? .absent
            let ours = change.to.map(Slot.value) ?? .absent
            let now = slot(in: result, at: change.pointer)
            if now == ours { continue }
            if now == base {
                result = setting(ours, at: change.pointer.tokens[...], in: result)
            } else {
                conflicts.append(Conflict(pointer: change.pointer, base: base, ours: ours, theirs: now))
            }
        }
        return conflicts.isEmpty ? .merged(result) : .conflicts(conflicts)
    }

    /// The three-way merge: the changes from `base` to `ours` re-applied to `theirs`.
    package static func merge(base: JSONValue, ours: JSONValue, theirs: JSONValue) -> Outcome {
        apply(patch(from: base, to: ours), onto: theirs)
    }

    /// What `document` holds at `pointer`.
    package static func slot(in document: JSONValue, at pointer: JSONPointer) -> Slot {
        guard let parent = pointer.parent, let token = pointer.tokens.last else { return .value(document) }
        switch document[parent] {
        case .object(let object)?:
            return object[token].map(Slot.value) ?? .absent
        case .array(let elements)?:
            // RFC 6901 §4: an index is digits without a leading zero; one past the end is where an element is added.
            guard let index = JSONPointer.arrayIndex(token), index <= elements.count else { return .unreachable }
            return index < elements.count ? .value(elements[index]) : .absent
        default:
            return .unreachable
        }
    }

    /// A patch as stored (``JSONDiff/jsonValue(_:)``: `[{op, pointer, from?, to?}]`, a present `null` being the
    /// value null); nil when `value` is not one.
    package static func patch(parsing value: JSONValue) -> [JSONDiff.Change]? {
        guard let items = value.arrayValue else { return nil }
        var changes: [JSONDiff.Change] = []
        for item in items {
            guard let op = item["op"]?.stringValue.flatMap(JSONDiff.Change.Operation.init(rawValue:)),
                let pointer = item["pointer"]?.stringValue.flatMap({ JSONPointer($0) })
            else { return nil }
            changes.append(JSONDiff.Change(op: op, pointer: pointer, from: item["from"], to: item["to"]))
        }
        return changes
    }

    /// `document` with `slot` at the pointer made of `tokens`; the container must exist (the slot there is not
    /// ``Slot/unreachable``).
    private static func setting(_ slot: Slot, at tokens: ArraySlice<String>, in document: JSONValue) -> JSONValue {
        guard let token = tokens.first else { return slot.value ?? .null }
        let rest = tokens.dropFirst()
        switch document {
        case .object(var object):
            if rest.isEmpty {
                object[token] = slot.value
            } else if let child = object[token] {
                object[token] = setting(slot, at: rest, in: child)
            }
            return .object(object)
        case .array(var elements):
            guard let index = JSONPointer.arrayIndex(token), index <= elements.count else { return document }
            if !rest.isEmpty {
                if index < elements.count { elements[index] = setting(slot, at: rest, in: elements[index]) }
            } else if let value = slot.value {
                if index < elements.count { elements[index] = value } else { elements.append(value) }
            } else if index < elements.count {
                elements.remove(at: index)
            }
            return .array(elements)
        default:
            return document
        }
    }
}

extension JSONMerge.Slot: Equatable {
    /// Same kind of slot and, for values, the same JSON (``JSONDiff/equal(_:_:)``: numbers by value).
    package static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case (.absent, .absent), (.unreachable, .unreachable): true
        case (.value(let a), .value(let b)): JSONDiff.equal(a, b)
        default: false
        }
    }
}
