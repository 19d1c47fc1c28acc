/// The values a matched route's `{name}` segments captured, in pattern order.
///
/// Not a dictionary: nearly every route has at most one capture, so the first is held inline and a request pays
/// for no hash table (building, hashing and freeing one was about 1,300 instructions of every policy fetch,
/// callgrind). ``HTTPRequest/pathParameters`` still offers the dictionary; ``HTTPRequest/pathParameter(_:)``
/// reads one value without building it.
package struct PathParameters: Sendable, ExpressibleByDictionaryLiteral {
    private var first: (name: String, value: String)?
    private var rest: [(name: String, value: String)] = []

    /// No captures.
    package init() {}

    /// The pairs of a dictionary, ordered by name (a dictionary has no order of its own).
    package init(_ dictionary: [String: String]) {
        for (name, value) in dictionary.sorted(by: { $0.key < $1.key }) { append(name: name, value: value) }
    }

    /// The given pairs; a repeated name keeps its last value, as a dictionary literal may not repeat one.
    package init(dictionaryLiteral elements: (String, String)...) {
        self.init(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }

    /// Adds a capture after the others. A name already present is replaced.
    package mutating func append(name: String, value: String) {
        if first == nil {
            first = (name, value)
        } else if first?.name == name {
            first?.value = value
        } else if let index = rest.firstIndex(where: { $0.name == name }) {
            rest[index].value = value
        } else {
            rest.append((name, value))
        }
    }

    /// The value captured under `name`, or nil.
    package subscript(name: String) -> String? {
        guard let first else { return nil }
        if first.name == name { return first.value }
        return rest.first { $0.name == name }?.value
    }

    /// The number of captures.
    package var count: Int { first == nil ? 0 : 1 + rest.count }

    /// The captures as a dictionary.
    package var dictionary: [String: String] {
        guard let first else { return [:] }
        var result = [first.name: first.value]
        for pair in rest { result[pair.name] = pair.value }
        return result
    }
}
