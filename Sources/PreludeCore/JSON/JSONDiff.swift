/// A readable structural diff between two JSON documents: a list of changes, each an operation on a JSON pointer
/// with the old and new values. Objects are compared member by member and arrays element by element (a longer
/// array adds at the end, a shorter one removes from the end), so editing one text in a large policy is one change.
/// Numbers compare by value (`72` equals `72.0`).
package enum JSONDiff {
    /// One difference.
    package struct Change: Sendable, Equatable {
        /// What happened at `pointer`.
        package enum Operation: String, Sendable {
            /// The member or element exists only in the new document.
            case add
            /// The member or element exists only in the old document.
            case remove
            /// Both have it, with different values (or kinds).
            case replace
        }

        /// The operation.
        package var op: Operation
        /// Where, in both documents.
        package var pointer: JSONPointer
        /// The old value (nil for `add`).
        package var from: JSONValue?
        /// The new value (nil for `remove`).
        package var to: JSONValue?

        /// A change with these members.
        package init(op: Operation, pointer: JSONPointer, from: JSONValue?, to: JSONValue?) {
            self.op = op
            self.pointer = pointer
            self.from = from
            self.to = to
        }

        /// `{"op", "pointer", "from"?, "to"?}`.
        package var jsonValue: JSONValue {
            var object = JSONObject()
            object["op"] = .string(op.rawValue)
            object["pointer"] = .string(pointer.description)
            if let from { object["from"] = from }
            if let to { object["to"] = to }
            return .object(object)
        }
    }

    /// How arrays are compared.
    package enum Arrays: Sendable {
        /// Element by element: editing one element is one change at its index (what a reader wants to see).
        case elements
        /// As whole values: any difference is one `replace` of the array. What a patch that is re-applied to
        /// another revision records (``JSONMerge``): an index names another element once either side inserted or
        /// removed one.
        case whole
    }

    /// Every change turning `old` into `new`, in document order.
    package static func changes(from old: JSONValue, to new: JSONValue, arrays: Arrays = .elements) -> [Change] {
        var changes: [Change] = []
        var tokens: [String] = []
        compare(old, new, arrays: arrays, tokens: &tokens, into: &changes)
        return changes
    }

    /// `[change…]` as JSON.
    package static func jsonValue(_ changes: [Change]) -> JSONValue { .array(changes.map(\.jsonValue)) }

    /// A summary for audit records: the count and at most `limit` changes, with `truncated` when there were more.
    package static func summary(_ changes: [Change], limit: Int = 100) -> JSONValue {
        var object = JSONObject()
        object["changeCount"] = .integer(changes.count)
        object["changes"] = .array(changes.prefix(limit).map(\.jsonValue))
        if changes.count > limit { object["truncated"] = .bool(true) }
        return .object(object)
    }

    /// Compares `old` and `new`, both at the pointer made of `tokens`: one token stack for the whole walk, and a
    /// ``JSONPointer`` made only for a change (the admin API diffs every write against the live policy, where most
    /// values are unchanged). `JSONDiffTests` compares it with the walk that makes a pointer for every value.
    private static func compare(
        _ old: JSONValue, _ new: JSONValue, arrays: Arrays, tokens: inout [String], into changes: inout [Change]
    ) {
        switch (old, new) {
        case (.object(let a), .object(let b)):
            for (key, value) in a {
                tokens.append(key)
                if let other = b[key] {
                    compare(value, other, arrays: arrays, tokens: &tokens, into: &changes)
                } else {
                    changes.append(Change(op: .remove, pointer: JSONPointer(tokens: tokens), from: value, to: nil))
                }
                tokens.removeLast()
            }
            for (key, value) in b where a[key] == nil {
                changes.append(Change(op: .add, pointer: JSONPointer(tokens: tokens + [key]), from: nil, to: value))
            }
        case (.array(let a), .array(let b)) where arrays == .elements:
            for index in 0..<min(a.count, b.count) {
                tokens.append(String(index))
                compare(a[index], b[index], arrays: arrays, tokens: &tokens, into: &changes)
                tokens.removeLast()
            }
            // Removals from the end backwards, so applying them in order keeps the indices valid.
            if a.count > b.count {
                for index in (b.count..<a.count).reversed() {
                    changes.append(
                        Change(
                            op: .remove, pointer: JSONPointer(tokens: tokens + [String(index)]), from: a[index], to: nil
                        ))
                }
            }
            if b.count > a.count {
                for index in a.count..<b.count {
                    changes.append(
                        Change(
                            op: .add, pointer: JSONPointer(tokens: tokens + [String(index)]), from: nil, to: b[index]))
                }
            }
        default:
            if !equal(old, new) {
                changes.append(Change(op: .replace, pointer: JSONPointer(tokens: tokens), from: old, to: new))
            }
        }
    }

    /// Whether `a` and `b` are the same JSON: numbers by value (`72` equals `72.0`) at every depth, object members
    /// in any order.
    package static func equal(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.object(let x), .object(let y)):
            guard x.count == y.count else { return false }
            return x.allSatisfy { member in y[member.key].map { equal(member.value, $0) } ?? false }
        case (.array(let x), .array(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { equal($0, $1) }
        default:
            if let x = a.doubleValue, let y = b.doubleValue { return x == y }
            return a == b
        }
    }
}
