import PreludeStorage

/// What is wrong with a setting's value; ``ServiceConfiguration`` adds where the value came from.
struct SettingProblem: Error {
    /// What is wrong and what is accepted.
    let problem: String
}

/// Turns a setting's text into its value, or says what is wrong. `value` is the text trimmed of whitespace; `raw`
/// is the text as given, quoted in the messages.
struct SettingParser<Value> {
    /// Parses `value` (trimmed); `raw` is quoted in the error.
    let parse: (_ value: String, _ raw: String) throws(SettingProblem) -> Value

    /// The same parser, its value wrapped in an optional (for settings that are unset by default).
    var optional: SettingParser<Value?> {
        SettingParser<Value?> { (value, raw) throws(SettingProblem) in try parse(value, raw) }
    }
}

extension SettingParser where Value == Int {
    /// A whole number in `range`, else "'raw' is not <description>".
    static func integer(in range: ClosedRange<Int>, _ description: String) -> Self {
        Self { (value, raw) throws(SettingProblem) in
            guard let number = Int(value), range.contains(number) else {
                throw SettingProblem(problem: "'\(raw)' is not \(description)")
            }
            return number
        }
    }
}

extension SettingParser where Value == Double {
    /// A finite number in `range`, fractions allowed, else "'raw' is not <description>".
    static func number(in range: ClosedRange<Double>, _ description: String) -> Self {
        Self { (value, raw) throws(SettingProblem) in
            guard let number = Double(value), number.isFinite, range.contains(number) else {
                throw SettingProblem(problem: "'\(raw)' is not \(description)")
            }
            return number
        }
    }
}

extension SettingParser where Value == String {
    /// An IP address or host name: letters, digits, `.`, `-` and `:` only.
    static var hostName: Self {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-:".unicodeScalars)
        return Self { (value, raw) throws(SettingProblem) in
            guard !value.isEmpty, value.unicodeScalars.allSatisfy(allowed.contains) else {
                throw SettingProblem(problem: "'\(raw)' is not an IP address or host name")
            }
            return value
        }
    }

    /// Any text, trimmed.
    static var text: Self { Self { value, _ in value } }

    /// Any text but the empty one, which is refused with `emptyProblem`.
    static func nonEmpty(_ emptyProblem: String) -> Self {
        Self { (value, _) throws(SettingProblem) in
            guard !value.isEmpty else { throw SettingProblem(problem: emptyProblem) }
            return value
        }
    }
}

extension SettingParser where Value == String? {
    /// Any text; the empty text is no value.
    static var optionalText: Self { Self { value, _ in value.isEmpty ? nil : value } }
}

extension SettingParser where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
    /// One of the type's raw values, case-insensitively, else "'raw' is not a <what> (a, b, c)".
    static func choice(_ what: String) -> Self {
        Self { (value, raw) throws(SettingProblem) in
            guard let choice = Value(rawValue: value.lowercased()) else {
                let names = Value.allCases.map(\.rawValue).joined(separator: ", ")
                throw SettingProblem(problem: "'\(raw)' is not a \(what) (\(names))")
            }
            return choice
        }
    }
}

extension SettingParser {
    /// A list that `parse` reads (``TrustedProxies``, ``WebhookAllowlist``); the entry it refuses, which `entry`
    /// names, is "not <description>".
    static func list<Failure: Error>(
        _ parse: @escaping (String) throws(Failure) -> Value, entry: @escaping (Failure) -> String,
        _ description: String
    ) -> Self {
        Self { (value, _) throws(SettingProblem) in
            do throws(Failure) {
                return try parse(value)
            } catch {
                throw SettingProblem(problem: "'\(entry(error))' is not \(description)")
            }
        }
    }
}

extension SettingParser where Value == FollowURL? {
    /// The primary's URL; the empty text is none (a primary).
    static var followURL: Self {
        Self { (value, _) throws(SettingProblem) in
            guard !value.isEmpty else { return nil }
            switch FollowURL.parse(value) {
            case .success(let url): return url
            case .failure(let problem): throw SettingProblem(problem: problem.reason)
            }
        }
    }
}
