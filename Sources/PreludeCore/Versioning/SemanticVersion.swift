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
        var text = Substring(string)
        var build: [String] = []
        if let plus = text.firstIndex(of: "+") {
            guard let identifiers = Self.identifiers(text[text.index(after: plus)...], numericRules: false) else {
                return nil
            }
            build = identifiers
            text = text[..<plus]
        }
        var preRelease: [String] = []
        if let dash = text.firstIndex(of: "-") {
            guard let identifiers = Self.identifiers(text[text.index(after: dash)...], numericRules: true) else {
                return nil
            }
            preRelease = identifiers
            text = text[..<dash]
        }
        let components = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...3).contains(components.count) else { return nil }
        var numbers: [Int] = []
        for component in components {
            guard let number = Self.numericIdentifier(component) else { return nil }
            numbers.append(number)
        }
        self.init(
            major: numbers[0], minor: numbers.count > 1 ? numbers[1] : 0, patch: numbers.count > 2 ? numbers[2] : 0,
            preRelease: preRelease, build: build, writtenComponents: numbers.count)
    }

    /// Creates a version from its parts; `preRelease` and `build` identifiers must be valid (a precondition).
    public init(major: Int, minor: Int = 0, patch: Int = 0, preRelease: [String] = [], build: [String] = []) {
        precondition(major >= 0 && minor >= 0 && patch >= 0, "version components are non-negative")
        let validPreRelease =
            preRelease.isEmpty
            || Self.identifiers(Substring(preRelease.joined(separator: ".")), numericRules: true) != nil
        let validBuild =
            build.isEmpty || Self.identifiers(Substring(build.joined(separator: ".")), numericRules: false) != nil
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

    /// Semver §2: a non-negative integer without leading zeros.
    private static func numericIdentifier(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy(isDigit) else { return nil }
        guard text == "0" || text.utf8.first != UInt8(ascii: "0") else { return nil }
        return Int(text)  // nil on overflow
    }

    /// Semver §9 (pre-release, `numericRules`: numeric identifiers without leading zeros) and §10 (build).
    private static func identifiers(_ text: Substring, numericRules: Bool) -> [String]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        var result: [String] = []
        for part in parts {
            guard !part.isEmpty,
                part.utf8.allSatisfy({ isDigit($0) || isLetter($0) || $0 == UInt8(ascii: "-") })
            else { return nil }
            if numericRules, part.utf8.allSatisfy(isDigit), part.count > 1, part.utf8.first == UInt8(ascii: "0") {
                return nil
            }
            result.append(String(part))
        }
        return result
    }
}

@inline(__always) private func isDigit(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
}

@inline(__always) private func isLetter(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
}
