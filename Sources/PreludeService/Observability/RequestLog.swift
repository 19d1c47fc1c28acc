import PreludeCore
import PreludeHTTP

/// Writes one JSON line per completed request at `info`:
/// `{"time":…,"level":"info","msg":"request","method":"GET","route":"/v1/apps/{app}/policy","status":200,
/// "duration_ms":0.183,"bytes":215,"request_id":"4f1c…","remote":"127.0.0.1:51234","app":"demo"}`, plus `"token"`
/// (the admin token's name) on admin requests.
///
/// Only these fields are written: never headers, the query string or the body, so credentials
/// (`Authorization`, tokens) cannot reach the log; `app` is the route's `{app}` capture, when it has one. `route` is the pattern, or null when no route handled the
/// request. Lines are skipped without being built when the level is above `info`.
package struct RequestLog: Sendable {
    /// The logger lines go to.
    package let logger: Logger
    // The logger's level is fixed, so the check is made once here, not per request (a `LogLevel` comparison
    // ranks both levels through `allCases`).
    private let isEnabled: Bool

    /// A request log writing through `logger`.
    package init(logger: Logger) {
        self.logger = logger
        isEnabled = logger.isEnabled(.info)
    }

    /// Logs one completed request.
    package func record(_ request: CompletedRequest) {
        guard isEnabled else { return }
        logger.log(.info, "request", renderedMembers: Self.members(request))
    }

    /// The line's fields after `msg`, as rendered JSON members.
    package static func members(_ request: CompletedRequest) -> String {
        var out = ",\"method\":"
        out.reserveCapacity(160)
        out += JSONValue.quoted(request.method.rawValue)
        out += ",\"route\":"
        out += request.route.map(JSONValue.quoted) ?? "null"
        out += ",\"status\":"
        out += String(request.status)
        out += ",\"duration_ms\":"
        out += milliseconds(request.durationNanoseconds)
        out += ",\"bytes\":"
        out += String(request.bytesSent)
        out += ",\"request_id\":"
        out += JSONValue.quoted(request.requestID)
        out += ",\"remote\":"
        out += JSONValue.quoted(request.remoteAddress)
        if let app = request.pathParameter("app") {
            out += ",\"app\":"
            out += JSONValue.quoted(app)
        }
        // What the handler added (the admin API: the token's name as "token", never its secret).
        if !request.logFields.isEmpty {
            for (key, value) in request.logFields.sorted(by: { $0.key < $1.key }) {
                out += ",\(JSONValue.quoted(key)):\(JSONValue.quoted(value))"
            }
        }
        return out
    }

    /// Nanoseconds as milliseconds with three decimals (microsecond resolution), without Foundation formatting.
    static func milliseconds(_ nanoseconds: UInt64) -> String {
        let micros = (nanoseconds + 500) / 1000
        let fraction = String(micros % 1000)
        return String(micros / 1000) + "." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
