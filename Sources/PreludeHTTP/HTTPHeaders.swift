/// An ordered list of header fields with case-insensitive lookup (RFC 9110 §5.1).
///
/// Repeated fields are kept as separate entries in arrival order.
public struct HTTPHeaders: Sendable, Sequence, ExpressibleByDictionaryLiteral {
    /// One field line: the name as sent and its value with surrounding whitespace removed.
    public typealias Field = (name: String, value: String)

    private var fields: [Field]
    /// ``nameSignature(_:)`` of every field name, or-ed: a name whose bit is not set is not among the fields, so
    /// looking up an absent field (most lookups: a request rarely sends what a server asks about) reads no name.
    package private(set) var nameSignatures: UInt64 = 0

    /// Creates an empty header list.
    public init() { fields = [] }

    /// Creates an empty header list with room for `capacity` fields.
    package init(capacity: Int) {
        fields = []
        fields.reserveCapacity(capacity)
    }

    /// Creates headers from literal pairs, in order.
    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { (name: $0.0, value: $0.1) }
        for field in fields { nameSignatures |= Self.nameSignature(field.name) }
    }

    /// The number of field lines.
    public var count: Int { fields.count }

    /// The first value of the named field, or nil.
    public subscript(name: String) -> String? {
        value(for: name, signature: Self.nameSignature(name))
    }

    /// The first value of the named field, or nil, with the name's ``nameSignature(_:)`` computed by the caller.
    package func value(for name: String, signature: UInt64) -> String? {
        guard nameSignatures & signature != 0 else { return nil }
        // By index: the fields are compared in place, without copying (retaining) each name and value.
        for index in fields.indices where Self.namesEqual(fields[index].name, name) { return fields[index].value }
        return nil
    }

    /// Every value of the named field, in order.
    public func values(for name: String) -> [String] {
        values(for: name, signature: Self.nameSignature(name))
    }

    /// Every value of the named field, with the name's ``nameSignature(_:)`` computed by the caller.
    package func values(for name: String, signature: UInt64) -> [String] {
        guard nameSignatures & signature != 0 else { return [] }
        var values: [String] = []
        for index in fields.indices where Self.namesEqual(fields[index].name, name) {
            values.append(fields[index].value)
        }
        return values
    }

    /// True when the named field is present.
    public func contains(_ name: String) -> Bool { self[name] != nil }

    /// Appends a field line, keeping existing ones of the same name.
    public mutating func add(_ name: String, _ value: String) {
        add(name, value, signature: Self.nameSignature(name))
    }

    /// ``add(_:_:)`` with the name's ``nameSignature(_:)`` computed by the caller (the parser, from the bytes).
    package mutating func add(_ name: String, _ value: String, signature: UInt64) {
        fields.append((name: name, value: value))
        nameSignatures |= signature
    }

    /// Replaces every field of that name with one line.
    public mutating func set(_ name: String, _ value: String) {
        remove(name)
        add(name, value)
    }

    /// Removes every field of that name.
    public mutating func remove(_ name: String) {
        fields.removeAll { Self.namesEqual($0.name, name) }
        nameSignatures = 0
        for field in fields { nameSignatures |= Self.nameSignature(field.name) }
    }

    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    /// Every value of the named field joined with commas (RFC 9110 §5.3), or nil when there is none or the
    /// result is empty. One field line's value is returned as is, without building a list.
    public func combinedValue(for name: String) -> String? {
        guard nameSignatures & Self.nameSignature(name) != 0 else { return nil }
        var first: String?
        var joined: String?
        for index in fields.indices where Self.namesEqual(fields[index].name, name) {
            if let value = joined {
                joined = value + ", " + fields[index].value
            } else if let value = first {
                joined = value + ", " + fields[index].value
            } else {
                first = fields[index].value
            }
        }
        let value = joined ?? first
        return value?.isEmpty == true ? nil : value
    }

    /// ASCII case-insensitive comparison of field names (RFC 9110 §5.1).
    static func namesEqual(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        // Fast path over contiguous UTF-8 (native strings and literals); the generic one for bridged strings.
        if let result = a.utf8.withContiguousStorageIfAvailable({ x in
            b.utf8.withContiguousStorageIfAvailable { y in equalIgnoringASCIICase(x, y) }
        }), let result {
            return result
        }
        for (x, y) in zip(a.utf8, b.utf8) where x != y {
            if lowered(x) != lowered(y) { return false }
        }
        return true
    }

    /// One bit of 64 chosen by a field name's length and its first and last bytes, ASCII case-insensitive: equal
    /// names (``namesEqual(_:_:)``) have the same bit, so a set of them rules names out with one AND.
    package static func nameSignature(_ name: String) -> UInt64 {
        var name = name
        return name.withUTF8 { nameSignature(bytes: $0) }
    }

    /// ``nameSignature(_:)`` of a name given as its UTF-8 bytes.
    package static func nameSignature(bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        guard let first = bytes.first, let last = bytes.last else { return 1 }
        return 1 << UInt64((bytes.count &* 7 &+ Int(lowered(first)) &* 3 &+ Int(lowered(last))) & 63)
    }

    @inline(__always) private static func lowered(_ b: UInt8) -> UInt8 { (b >= 65 && b <= 90) ? b | 0x20 : b }

    private static func equalIgnoringASCIICase(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> Bool
    {
        for i in 0..<x.count where x[i] != y[i] {
            if lowered(x[i]) != lowered(y[i]) { return false }
        }
        return true
    }
}
