import PreludeHTTP
import Synchronization

/// `prelude_http_requests_total{route,method,status}` and `prelude_http_request_duration_seconds{route,method}`.
///
/// The series are allocated once from the router's routes, so recording a request is a dictionary lookup of
/// the route pattern and three relaxed atomic adds: no lock, no allocation. Requests no route handled (404,
/// 405, OPTIONS, parse errors, timeouts) are counted under `route="unmatched"`. Methods outside the seven the
/// engine implements are labelled `other`, and rare status codes outside `StatusSlots` go to a locked
/// dictionary, so label cardinality stays bounded by the routes.
package final class RequestMetrics: MetricsCollector {
    /// The label value for requests that no route handled.
    package static let unmatchedRoute = "unmatched"
    /// Method label values, by method slot; the last is `other`.
    package static let methodLabels = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "other"]

    /// One (route, method) series.
    final class Series: Sendable {
        let route: String
        let method: String
        let statuses: InlineArray<48, Atomic<UInt64>>
        let rareStatuses = Mutex<[Int: UInt64]>([:])
        let latency = LatencyHistogram()

        init(route: String, method: String) {
            self.route = route
            self.method = method
            statuses = InlineArray { _ in Atomic<UInt64>(0) }
        }

        func record(status: Int, nanoseconds: UInt64) {
            if let slot = StatusSlots.slot(for: status) {
                statuses[slot].wrappingAdd(1, ordering: .relaxed)
            } else {
                rareStatuses.withLock { $0[status, default: 0] += 1 }
            }
            latency.observe(nanoseconds: nanoseconds)
        }

        /// (status, count) pairs with a non-zero count, by status code.
        func counts() -> [(Int, UInt64)] {
            var result: [(Int, UInt64)] = []
            for (slot, code) in StatusSlots.codes.enumerated() {
                let count = statuses[slot].load(ordering: .relaxed)
                if count > 0 { result.append((code, count)) }
            }
            result += rareStatuses.withLock { Array($0) }
            return result.sorted { $0.0 < $1.0 }
        }
    }

    /// Route pattern → its row of `table`, looked up from the pattern's bytes (``ByteKeyTable``).
    private let patternIndex: ByteKeyTable<Int>
    /// [pattern][method slot]; nil where no route of that pattern answers that method.
    private let table: [[Series?]]
    /// Per method slot.
    private let unmatched: [Series]

    /// Allocates a series for each route's (pattern, method), plus HEAD for GET routes (RFC 9110 §9.3.2: the
    /// GET handler answers HEAD).
    package init(routes: [Router.Route]) {
        var patterns: [String] = []
        var index = ByteKeyTable<Int>()
        var methodsByPattern: [[Bool]] = []
        for route in routes {
            let position: Int
            if let existing = index[route.pattern] {
                position = existing
            } else {
                position = patterns.count
                index.insert(key: Array(route.pattern.utf8), value: position)
                patterns.append(route.pattern)
                methodsByPattern.append(Array(repeating: false, count: Self.methodLabels.count))
            }
            methodsByPattern[position][Self.methodSlot(route.method)] = true
            if route.method == .get { methodsByPattern[position][Self.methodSlot(.head)] = true }
        }
        patternIndex = index
        table = patterns.enumerated().map { position, pattern in
            methodsByPattern[position].enumerated().map { slot, used in
                used ? Series(route: pattern, method: Self.methodLabels[slot]) : nil
            }
        }
        unmatched = Self.methodLabels.map { Series(route: Self.unmatchedRoute, method: $0) }
    }

    /// Counts one response. `route` is the matched pattern, or nil when no handler ran.
    package func record(method: HTTPMethod, route: String?, status: Int, nanoseconds: UInt64) {
        let slot = Self.methodSlot(method)
        let series = route.flatMap { patternIndex[$0] }.flatMap { table[$0][slot] } ?? unmatched[slot]
        series.record(status: status, nanoseconds: nanoseconds)
    }

    package func collect(into writer: inout MetricsTextWriter) {
        let all = table.flatMap { $0.compactMap { $0 } } + unmatched
        writer.family(
            "prelude_http_requests_total", type: .counter,
            help: "HTTP responses sent, by route pattern, method and status code.")
        for series in all {
            for (status, count) in series.counts() {
                writer.sample(
                    "prelude_http_requests_total",
                    labels: [("route", series.route), ("method", series.method), ("status", String(status))],
                    value: count)
            }
        }
        writer.family(
            "prelude_http_request_duration_seconds", type: .histogram,
            help: "Time from the first byte of the request to its response being ready to write.")
        for series in all where series.latency.count > 0 {
            series.latency.write(
                "prelude_http_request_duration_seconds", labels: [("route", series.route), ("method", series.method)],
                into: &writer)
        }
    }

    static func methodSlot(_ method: HTTPMethod) -> Int {
        switch method.rawValue {
        case "GET": 0
        case "HEAD": 1
        case "POST": 2
        case "PUT": 3
        case "PATCH": 4
        case "DELETE": 5
        case "OPTIONS": 6
        default: 7
        }
    }
}
