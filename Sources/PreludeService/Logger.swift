import Foundation

/// Writes one JSON object per line (time, level, message, fields) to standard error, dropping lines
/// below its level. Each line goes out in a single `write(2)` so concurrent lines do not interleave.
package struct Logger: Sendable {
    /// The lowest level written.
    package let level: LogLevel
    private let sink: @Sendable (String) -> Void

    /// A logger writing to standard error.
    package init(level: LogLevel) {
        self.init(level: level) { line in
            var bytes = Array(line.utf8)
            bytes.append(UInt8(ascii: "\n"))
            _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
        }
    }

    /// A logger writing each line (without its newline) to `sink`; tests use it to capture output.
    package init(level: LogLevel, sink: @escaping @Sendable (String) -> Void) {
        self.level = level
        self.sink = sink
    }

    /// Logs `message` with extra string fields.
    package func log(_ level: LogLevel, _ message: String, _ fields: [String: String] = [:]) {
        guard level >= self.level else { return }
        var line = "{\"time\":\(Self.quote(Self.timestamp())),\"level\":\(Self.quote(level.rawValue)),"
        line += "\"msg\":\(Self.quote(message))"
        for (key, value) in fields.sorted(by: { $0.key < $1.key }) {
            line += ",\(Self.quote(key)):\(Self.quote(value))"
        }
        line += "}"
        sink(line)
    }

    /// Logs at `debug`.
    package func debug(_ message: String, _ fields: [String: String] = [:]) { log(.debug, message, fields) }
    /// Logs at `info`.
    package func info(_ message: String, _ fields: [String: String] = [:]) { log(.info, message, fields) }
    /// Logs at `warning`.
    package func warning(_ message: String, _ fields: [String: String] = [:]) { log(.warning, message, fields) }
    /// Logs at `error`.
    package func error(_ message: String, _ fields: [String: String] = [:]) { log(.error, message, fields) }

    /// A JSON string literal (RFC 8259 §7): quotes, backslashes and control characters escaped.
    package static func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    private static func timestamp() -> String {
        Date().formatted(
            .iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
    }
}
