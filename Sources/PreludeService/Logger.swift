import PreludeCore

#if canImport(FoundationEssentials)
    import Dispatch
    import FoundationEssentials
    import Glibc
#else
    import Foundation
#endif

/// Writes one JSON object per line (time, level, message, fields) to standard error, dropping lines
/// below its level. Each line goes out in a single `write(2)` so concurrent lines do not interleave.
package struct Logger: Sendable {
    /// The lowest level written.
    package let level: LogLevel
    private let sink: @Sendable (String) -> Void
    /// Members every line carries after its own fields (``with(_:)``), already rendered, each starting with a comma.
    private var context = ""

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

    /// Logs `message` with extra string fields and number fields; numbers are written as JSON numbers (log
    /// pipelines such as Loki and Elasticsearch then compare and aggregate them without parsing strings).
    package func log(
        _ level: LogLevel, _ message: String, _ fields: [String: String] = [:], numbers: [String: Double] = [:]
    ) {
        guard level >= self.level else { return }
        var line = "{\"time\":\(JSONValue.quoted(Self.timestamp())),\"level\":\(JSONValue.quoted(level.rawValue)),"
        line += "\"msg\":\(JSONValue.quoted(message))"
        var members = fields.map { ($0.key, JSONValue.quoted($0.value)) }
        members += numbers.map { ($0.key, Self.number($0.value)) }
        for (key, value) in members.sorted(by: { $0.0 < $1.0 }) {
            line += ",\(JSONValue.quoted(key)):\(value)"
        }
        line += context
        line += "}"
        sink(line)
    }

    /// A JSON number (RFC 8259 §6): whole values without a fraction (`8080`, not `8080.0`); NaN and infinities,
    /// which JSON cannot write, as `null`.
    package static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 9_007_199_254_740_992 { return String(Int64(value)) }
        return String(value)
    }

    /// Logs `message` followed by `members`: JSON object members already rendered, each starting with a comma
    /// (e.g. `,"status":200`), for lines with numeric fields written on a hot path (the request log).
    package func log(_ level: LogLevel, _ message: String, renderedMembers members: String) {
        guard level >= self.level else { return }
        sink(
            "{\"time\":\(JSONValue.quoted(Self.timestamp())),\"level\":\(JSONValue.quoted(level.rawValue)),"
                + "\"msg\":\(JSONValue.quoted(message))\(members)}")
    }

    /// This logger with `fields` added to every line it writes (e.g. the request id, for lines a request causes).
    package func with(_ fields: [String: String]) -> Logger {
        var copy = self
        for (key, value) in fields.sorted(by: { $0.key < $1.key }) {
            copy.context += ",\(JSONValue.quoted(key)):\(JSONValue.quoted(value))"
        }
        return copy
    }

    /// Whether a line at `level` would be written (skip building it otherwise).
    package func isEnabled(_ level: LogLevel) -> Bool { level >= self.level }

    /// Logs at `debug`.
    package func debug(_ message: String, _ fields: [String: String] = [:], numbers: [String: Double] = [:]) {
        log(.debug, message, fields, numbers: numbers)
    }
    /// Logs at `info`.
    package func info(_ message: String, _ fields: [String: String] = [:], numbers: [String: Double] = [:]) {
        log(.info, message, fields, numbers: numbers)
    }
    /// Logs at `warning`.
    package func warning(_ message: String, _ fields: [String: String] = [:], numbers: [String: Double] = [:]) {
        log(.warning, message, fields, numbers: numbers)
    }
    /// Logs at `error`.
    package func error(_ message: String, _ fields: [String: String] = [:], numbers: [String: Double] = [:]) {
        log(.error, message, fields, numbers: numbers)
    }

    /// Now as `2026-11-22T12:13:41.002Z` (UTC, milliseconds). Formatted by hand from `clock_gettime` and
    /// `gmtime_r`: the request log writes one line per request, and Foundation's ISO 8601 formatter costs
    /// microseconds per call.
    package static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var seconds = now.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        var out = timestampTemplate
        func put(_ value: Int, at offset: Int, digits: Int) {
            var rest = value
            for index in stride(from: offset + digits - 1, through: offset, by: -1) {
                out[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
        }
        put(Int(parts.tm_year) + 1900, at: 0, digits: 4)
        put(Int(parts.tm_mon) + 1, at: 5, digits: 2)
        put(Int(parts.tm_mday), at: 8, digits: 2)
        put(Int(parts.tm_hour), at: 11, digits: 2)
        put(Int(parts.tm_min), at: 14, digits: 2)
        put(Int(parts.tm_sec), at: 17, digits: 2)
        put(Int(now.tv_nsec) / 1_000_000, at: 20, digits: 3)
        return String(decoding: out, as: UTF8.self)
    }

    /// The separators of `timestamp()`, in place; the digits are overwritten.
    private static let timestampTemplate: [UInt8] = Array("0000-00-00T00:00:00.000Z".utf8)
}
