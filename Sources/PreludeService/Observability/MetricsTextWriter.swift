/// Builds a Prometheus text exposition (format 0.0.4): `# HELP` and `# TYPE` lines, then samples.
///
/// Escaping follows the format's rules: in HELP text `\` → `\\` and newline → `\n`; in label values
/// additionally `"` → `\"`. Values are Go-style floats: `+Inf`, `-Inf`, `NaN`, integers without a fraction.
package struct MetricsTextWriter: Sendable {
    /// The content type a scrape gets.
    package static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    /// The exposition so far.
    package private(set) var text = ""

    /// An empty exposition.
    package init() {}

    /// Starts a metric family with its HELP and TYPE lines. Each family must be started exactly once.
    package mutating func family(_ name: String, type: MetricType, help: String) {
        precondition(Self.isValidName(name), "invalid metric name \(name)")
        text += "# HELP \(name) \(Self.escapeHelp(help))\n# TYPE \(name) \(type.rawValue)\n"
    }

    /// Appends one sample line: `name{label="value",…} value`.
    package mutating func sample(_ name: String, labels: [(String, String)] = [], value: Double) {
        text += name
        if !labels.isEmpty {
            text += "{"
            for (index, (label, labelValue)) in labels.enumerated() {
                if index > 0 { text += "," }
                text += label
                text += "=\""
                text += Self.escapeLabelValue(labelValue)
                text += "\""
            }
            text += "}"
        }
        text += " "
        text += Self.format(value)
        text += "\n"
    }

    /// Appends one sample with an integer value.
    package mutating func sample(_ name: String, labels: [(String, String)] = [], value: UInt64) {
        sample(name, labels: labels, value: Double(value))
    }

    /// A sample value as the format writes it: `+Inf`, `-Inf`, `NaN`, `3`, `0.0005`, `1.5e-07`.
    package static func format(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        // Integral values below 2^53 are exact as integers; print them without a fraction, like Go's client.
        if value == value.rounded(), abs(value) < 9_007_199_254_740_992 { return String(Int64(value)) }
        return value.description
    }

    /// HELP text escaping: backslash and newline.
    package static func escapeHelp(_ text: String) -> String {
        guard text.contains(where: { $0 == "\\" || $0 == "\n" }) else { return text }
        var out = ""
        for character in text {
            switch character {
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default: out.append(character)
            }
        }
        return out
    }

    /// Label value escaping: backslash, double quote and newline.
    package static func escapeLabelValue(_ text: String) -> String {
        guard text.contains(where: { $0 == "\\" || $0 == "\n" || $0 == "\"" }) else { return text }
        var out = ""
        for character in text {
            switch character {
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\"": out += "\\\""
            default: out.append(character)
            }
        }
        return out
    }

    /// Metric and label names: `[a-zA-Z_:][a-zA-Z0-9_:]*`.
    package static func isValidName(_ name: String) -> Bool {
        guard let first = name.utf8.first else { return false }
        func letter(_ byte: UInt8) -> Bool {
            (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || byte == 0x5F || byte == 0x3A
        }
        return letter(first) && name.utf8.allSatisfy { letter($0) || ($0 >= 0x30 && $0 <= 0x39) }
    }
}
