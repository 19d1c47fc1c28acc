/// A version number compared by Semantic Versioning 2.0.0 precedence (semver.org §11).
///
/// Accepts `17`, `17.4`, `17.4.1` (missing components are 0, so `17` == `17.0` == `17.0.0`), a pre-release
/// (`18.0.0-beta.2`, which sorts before `18.0.0`) and build metadata (`1.2.3+build.7`, ignored by precedence
/// and equality). Numeric components have no leading zeros (semver §2, §9); identifiers are
/// `[0-9A-Za-z-]+` (semver §9, §10). Four or more numeric components, a `v` prefix or spaces are rejected.
///
/// Encoded and decoded as a single JSON string, as written (`17.4` stays `17.4`).
public struct SemanticVersion: Comparable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The major component.
    public let major: Int
    /// The minor component (0 when not written).
    public let minor: Int
    /// The patch component (0 when not written).
    public let patch: Int
    /// The dot-separated pre-release identifiers; empty for a release.
    public let preRelease: [String]
    /// The dot-separated build metadata identifiers; never affects comparison.
    public let build: [String]
    /// How many numeric components were written (1–3), so the version prints back as written.
    private let writtenComponents: Int

    /// Parses a version; `nil` when malformed.
    public init?(_ string: String) {
        // Every valid version is ASCII, so the text is parsed as bytes in place (no split into arrays of
        // substrings): any non-ASCII byte fails the digit or identifier checks, as it did Character by Character.
        var string = string
        guard let version = string.withUTF8({ Self.parse($0) }) else { return nil }
        self = version
    }

    /// The version `bytes` spell (what ``init(_:)`` parses a string's UTF-8 as), or nil.
    package static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> SemanticVersion? {
        var end = bytes.count
        var build: [String] = []
        if let plus = bytes.firstIndex(of: UInt8(ascii: "+")) {
            guard let identifiers = identifiers(bytes, plus + 1..<end, numericRules: false) else { return nil }
            build = identifiers
            end = plus
        }
        var preRelease: [String] = []
        if let dash = bytes[..<end].firstIndex(of: UInt8(ascii: "-")) {
            guard let identifiers = identifiers(bytes, dash + 1..<end, numericRules: true) else { return nil }
            preRelease = identifiers
            end = dash
        }
        // One to three dot-separated numeric components; an empty one ("17.", ".4") is malformed.
        var numbers = (0, 0, 0)
        var written = 0
        var start = 0
        while true {
            var stop = start
            while stop < end && bytes[stop] != UInt8(ascii: ".") { stop += 1 }
            guard written < 3, let number = numericIdentifier(bytes, start..<stop) else { return nil }
            switch written {
            case 0: numbers.0 = number
            case 1: numbers.1 = number
            default: numbers.2 = number
            }
            written += 1
            if stop == end { break }
            start = stop + 1
        }
        return SemanticVersion(
            major: numbers.0, minor: numbers.1, patch: numbers.2, preRelease: preRelease, build: build,
            writtenComponents: written)
    }

    /// Creates a version from its parts; `preRelease` and `build` identifiers must be valid (a precondition).
    public init(major: Int, minor: Int = 0, patch: Int = 0, preRelease: [String] = [], build: [String] = []) {
        precondition(major >= 0 && minor >= 0 && patch >= 0, "version components are non-negative")
        let validPreRelease =
            preRelease.isEmpty
            || Self.identifiers(preRelease.joined(separator: "."), numericRules: true) != nil
        let validBuild =
            build.isEmpty || Self.identifiers(build.joined(separator: "."), numericRules: false) != nil
        precondition(validPreRelease, "invalid pre-release identifiers")
        precondition(validBuild, "invalid build identifiers")
        self.init(major: major, minor: minor, patch: patch, preRelease: preRelease, build: build, writtenComponents: 3)
    }

    private init(major: Int, minor: Int, patch: Int, preRelease: [String], build: [String], writtenComponents: Int) {
        self.major = major
        self.minor = minor
        self.patch = patch
        self.preRelease = preRelease
        self.build = build
        self.writtenComponents = writtenComponents
    }

    /// Whether this is a pre-release (`18.0.0-beta.2`).
    public var isPreRelease: Bool { !preRelease.isEmpty }

    /// The version as written, minus nothing: `17.4`, `18.0.0-beta.2`, `1.2.3+build.7`.
    public var description: String {
        var text = String(major)
        if writtenComponents > 1 { text += "." + String(minor) }
        if writtenComponents > 2 { text += "." + String(patch) }
        if !preRelease.isEmpty { text += "-" + preRelease.joined(separator: ".") }
        if !build.isEmpty { text += "+" + build.joined(separator: ".") }
        return text
    }

    // MARK: - Precedence (semver §11)

    /// Equal precedence: same numbers and pre-release; build metadata and written form are ignored (semver §10).
    public static func == (lhs: SemanticVersion, rhs: SemanticVersion) -> Bool {
        lhs.major == rhs.major && lhs.minor == rhs.minor && lhs.patch == rhs.patch && lhs.preRelease == rhs.preRelease
    }

    /// Hashes exactly what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(major)
        hasher.combine(minor)
        hasher.combine(patch)
        hasher.combine(preRelease)
    }

    /// Semver §11 precedence.
    public static func < (lhs: SemanticVersion, rhs: SemanticVersion) -> Bool {
        if lhs.major != rhs.major { return lhs.major < rhs.major }
        if lhs.minor != rhs.minor { return lhs.minor < rhs.minor }
        if lhs.patch != rhs.patch { return lhs.patch < rhs.patch }
        // §11.3: a pre-release has lower precedence than the release.
        switch (lhs.preRelease.isEmpty, rhs.preRelease.isEmpty) {
        case (true, true), (true, false): return false
        case (false, true): return true
        case (false, false): break
        }
        // §11.4: compare identifiers left to right; a shorter list that is a prefix is lower.
        for (left, right) in zip(lhs.preRelease, rhs.preRelease) where left != right {
            return identifierPrecedes(left, right)
        }
        return lhs.preRelease.count < rhs.preRelease.count
    }

    /// §11.4.1–3: numeric identifiers compare numerically and sort before alphanumeric ones, which compare
    /// in ASCII order. Numeric identifiers have no leading zeros, so "longer is larger" avoids overflow.
    private static func identifierPrecedes(_ left: String, _ right: String) -> Bool {
        let leftNumeric = left.utf8.allSatisfy(isDigit)
        let rightNumeric = right.utf8.allSatisfy(isDigit)
        switch (leftNumeric, rightNumeric) {
        case (true, true):
            return left.utf8.count != right.utf8.count
                ? left.utf8.count < right.utf8.count : left.utf8.lexicographicallyPrecedes(right.utf8)
        case (true, false): return true
        case (false, true): return false
        case (false, false): return left.utf8.lexicographicallyPrecedes(right.utf8)
        }
    }

    // MARK: - Codable

    /// Decodes a version from a string; a malformed one is a `DecodingError.dataCorrupted`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let version = SemanticVersion(text) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "\"\(text)\" is not a version such as 17, 17.4, 17.4.1 or 18.0.0-beta.2")
        }
        self = version
    }

    /// Encodes the version as written.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    // MARK: - Parsing

    /// Semver §2: a non-negative integer without leading zeros; nil on overflow.
    private static func numericIdentifier(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
        guard !range.isEmpty, range.count == 1 || bytes[range.lowerBound] != UInt8(ascii: "0") else { return nil }
        var value = 0
        for position in range {
            let byte = bytes[position]
            guard isDigit(byte) else { return nil }
            let (times10, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowAdding) = times10.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
            guard !overflow, !overflowAdding else { return nil }
            value = sum
        }
        return value
    }

    /// Semver §9 (pre-release, `numericRules`: numeric identifiers without leading zeros) and §10 (build):
    /// the dot-separated identifiers in `range`, each non-empty and `[0-9A-Za-z-]+`.
    private static func identifiers(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, numericRules: Bool)
        -> [String]?
    {
        var result: [String] = []
        var start = range.lowerBound
        while true {
            var stop = start
            var allDigits = true
            while stop < range.upperBound && bytes[stop] != UInt8(ascii: ".") {
                let byte = bytes[stop]
                guard isDigit(byte) || isLetter(byte) || byte == UInt8(ascii: "-") else { return nil }
                if !isDigit(byte) { allDigits = false }
                stop += 1
            }
            guard stop > start else { return nil }
            if numericRules, allDigits, stop - start > 1, bytes[start] == UInt8(ascii: "0") { return nil }
            result.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<stop]), as: UTF8.self))
            if stop == range.upperBound { return result }
            start = stop + 1
        }
    }

    /// ``identifiers(_:_:numericRules:)`` for a string (the memberwise initializer's precondition).
    private static func identifiers(_ text: String, numericRules: Bool) -> [String]? {
        var text = text
        return text.withUTF8 { identifiers($0, 0..<$0.count, numericRules: numericRules) }
    }
}

@inline(__always) private func isDigit(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
}

@inline(__always) private func isLetter(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
}
