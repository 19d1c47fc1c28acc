import Foundation
import PreludeHTTP
import Testing

@testable import PreludeService

@Suite struct MetricsTests {
    /// The sample lines of `text` whose name (before `{` or space) is `name`.
    static func samples(_ text: String, _ name: String) -> [String] {
        text.split(separator: "\n").map(String.init).filter {
            !$0.hasPrefix("#") && ($0.hasPrefix(name + "{") || $0.hasPrefix(name + " "))
        }
    }

    @Test(arguments: [
        (0.0, "0"), (3.0, "3"), (-2.0, "-2"), (0.0005, "0.0005"), (2.5, "2.5"), (Double.infinity, "+Inf"),
        (-Double.infinity, "-Inf"), (Double.nan, "NaN"), (1e20, "1e+20"),
    ])
    func formatsValuesLikeTheTextFormat(value: Double, expected: String) {
        #expect(MetricsTextWriter.format(value) == expected)
    }

    @Test func escapesLabelValuesAndHelpText() {
        var writer = MetricsTextWriter()
        writer.family("x_total", type: .counter, help: "back\\slash\nnewline \"quotes stay\"")
        writer.sample("x_total", labels: [("path", "a\\b\"c\nd"), ("plain", "/v1/apps/{app}")], value: 1.0)
        #expect(
            writer.text == """
                # HELP x_total back\\\\slash\\nnewline "quotes stay"
                # TYPE x_total counter
                x_total{path="a\\\\b\\"c\\nd",plain="/v1/apps/{app}"} 1

                """)
    }

    @Test(arguments: ["a", "prelude_http_requests_total", "a:b_c9", "_x"])
    func acceptsValidNames(name: String) { #expect(MetricsTextWriter.isValidName(name)) }

    @Test(arguments: ["", "9a", "a-b", "a b", "é"])
    func rejectsInvalidNames(name: String) { #expect(!MetricsTextWriter.isValidName(name)) }

    @Test func histogramBucketsAreCumulativeAndEndWithInfinity() {
        let histogram = MetricHistogram(name: "h_seconds", help: "h")
        // 0.4 ms, exactly 1 ms (le is inclusive), 30 ms, 6 s (beyond the last bound).
        for nanoseconds: UInt64 in [400_000, 1_000_000, 30_000_000, 6_000_000_000] {
            histogram.observe(nanoseconds: nanoseconds)
        }
        var writer = MetricsTextWriter()
        histogram.collect(into: &writer)
        let text = writer.text
        #expect(text.hasPrefix("# HELP h_seconds h\n# TYPE h_seconds histogram\n"))
        let buckets = Self.samples(text, "h_seconds_bucket")
        #expect(buckets.count == LatencyHistogram.upperBounds.count + 1)
        #expect(buckets.first == #"h_seconds_bucket{le="0.0005"} 1"#)
        #expect(buckets.contains(#"h_seconds_bucket{le="0.001"} 2"#))
        #expect(buckets.contains(#"h_seconds_bucket{le="0.025"} 2"#))
        #expect(buckets.contains(#"h_seconds_bucket{le="0.05"} 3"#))
        #expect(buckets.contains(#"h_seconds_bucket{le="5"} 3"#))
        #expect(buckets.last == #"h_seconds_bucket{le="+Inf"} 4"#)
        let counts = buckets.map { Int($0.split(separator: " ").last!)! }
        #expect(counts == counts.sorted(), "buckets must be cumulative")
        #expect(Self.samples(text, "h_seconds_count") == ["h_seconds_count 4"])
        #expect(Self.samples(text, "h_seconds_sum") == ["h_seconds_sum 6.0314"])
    }

    @Test func requestMetricsCountByRoutePatternMethodAndStatus() {
        var router = Router()
        router.add(.get, "/v1/apps/{app}/policy") { _ in HTTPResponse() }
        router.add(.post, "/v1/apps/{app}/events") { _ in HTTPResponse() }
        let metrics = RequestMetrics(routes: router.routes)
        metrics.record(method: .get, route: "/v1/apps/{app}/policy", status: 200, nanoseconds: 200_000)
        metrics.record(method: .get, route: "/v1/apps/{app}/policy", status: 200, nanoseconds: 300_000)
        metrics.record(method: .get, route: "/v1/apps/{app}/policy", status: 304, nanoseconds: 100_000)
        metrics.record(method: .head, route: "/v1/apps/{app}/policy", status: 200, nanoseconds: 100_000)
        metrics.record(method: .post, route: "/v1/apps/{app}/events", status: 422, nanoseconds: 2_000_000)
        metrics.record(method: .get, route: nil, status: 404, nanoseconds: 50_000)
        metrics.record(method: HTTPMethod(rawValue: "BREW"), route: nil, status: 501, nanoseconds: 50_000)
        // A status without a slot takes the locked path and is still counted.
        metrics.record(method: .get, route: "/v1/apps/{app}/policy", status: 418, nanoseconds: 100_000)
        var writer = MetricsTextWriter()
        metrics.collect(into: &writer)
        let requests = Self.samples(writer.text, "prelude_http_requests_total")
        #expect(
            requests == [
                #"prelude_http_requests_total{route="/v1/apps/{app}/policy",method="GET",status="200"} 2"#,
                #"prelude_http_requests_total{route="/v1/apps/{app}/policy",method="GET",status="304"} 1"#,
                #"prelude_http_requests_total{route="/v1/apps/{app}/policy",method="GET",status="418"} 1"#,
                #"prelude_http_requests_total{route="/v1/apps/{app}/policy",method="HEAD",status="200"} 1"#,
                #"prelude_http_requests_total{route="/v1/apps/{app}/events",method="POST",status="422"} 1"#,
                #"prelude_http_requests_total{route="unmatched",method="GET",status="404"} 1"#,
                #"prelude_http_requests_total{route="unmatched",method="other",status="501"} 1"#,
            ])
        let counts = Self.samples(writer.text, "prelude_http_request_duration_seconds_count")
        #expect(
            counts.first
                == #"prelude_http_request_duration_seconds_count{route="/v1/apps/{app}/policy",method="GET"} 4"#)
        #expect(counts.count == 5)
    }

    @Test func registryRendersFamiliesInOrderWithClosureGauges() {
        let registry = MetricsRegistry()
        let counter = registry.counter("a_total", help: "a")
        counter.add()
        counter.add(2)
        registry.gauge("b", help: "b") { 7 }
        registry.gauge("c", help: "c", labelNames: ["app"]) {
            [ObservedMetric.Sample(["demo"], 3), ObservedMetric.Sample(["x\"y"], 1)]
        }
        #expect(
            registry.render() == """
                # HELP a_total a
                # TYPE a_total counter
                a_total 3
                # HELP b b
                # TYPE b gauge
                b 7
                # HELP c c
                # TYPE c gauge
                c{app="demo"} 3
                c{app="x\\"y"} 1

                """)
    }

    @Test func processMetricsReadProc() throws {
        var writer = MetricsTextWriter()
        ProcessMetrics().collect(into: &writer)
        let text = writer.text
        let resident = try #require(Self.samples(text, "process_resident_memory_bytes").first)
        #expect((Double(resident.split(separator: " ")[1]) ?? 0) > 1_000_000)
        let fds = try #require(Self.samples(text, "process_open_fds").first)
        #expect((Int(fds.split(separator: " ")[1]) ?? 0) >= 3)
        let start = try #require(Self.samples(text, "process_start_time_seconds").first)
        let started = try #require(Double(start.split(separator: " ")[1]))
        // Started before now, and not before this test binary could have been built (a day is generous).
        #expect(started <= Date().timeIntervalSince1970 + 1)
        #expect(started > Date().timeIntervalSince1970 - 86_400)
        #expect(Self.samples(text, "process_cpu_seconds_total").count == 1)
    }

    @Test func processMetricsLeaveOutWhatCannotBeRead() {
        var writer = MetricsTextWriter()
        ProcessMetrics(procRoot: "/nonexistent").collect(into: &writer)
        #expect(!writer.text.contains("process_resident_memory_bytes"))
        #expect(!writer.text.contains("process_open_fds"))
    }

    @Test func statFieldsSurviveSpacesAndParenthesesInTheCommandName() {
        let fields = ProcessMetrics.statFields("42 (a) b)) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20")
        #expect(fields.first == "S")
        #expect(fields[11] == "11")
    }
}

@Suite struct MetricsLiveTests {
    let fixture = ServiceFixture()

    @Test func countsEveryListenerInOneFamilyAndParsesEngineAnswers() throws {
        var configuration = ServiceFixture.make(fixture)
        configuration.adminPort = 0
        let service = try PreludeService.start(configuration: configuration, logger: Logger(level: .error))
        defer { service.stop() }
        let adminPort = try #require(service.adminPort)

        let refused = try RequestLogTests.Client.exchange(
            port: adminPort, "GET /v1/admin/apps HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        #expect(refused.status == 401)
        let malformed = try RequestLogTests.Client.exchange(port: service.port, "GET / HTTP/1.1\nHost: t\n\n")
        #expect(malformed.status == 400)
        _ = try TestTransport.live(port: service.port).get("/healthz")
        try service.database.write { try $0.execute("CREATE TABLE metrics_probe (x INTEGER)") }
        let event =
            #"{"events":[{"id":"e1","installId":"i1","type":"primeShown","feature":"camera","occurredAt":"#
            + "\(Int(Date().timeIntervalSince1970 * 1000))}]}"
        let post =
            "POST /v1/apps/demo/events HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(event.utf8.count)\r\nConnection: close\r\n\r\n\(event)"
        #expect(try RequestLogTests.Client.exchange(port: service.port, post).status == 202)
        #expect(try RequestLogTests.Client.exchange(port: service.port, post).status == 202)

        let scrape = try TestTransport.live(port: service.port).get("/metrics")
        #expect(scrape.status == 200)
        #expect(scrape.headers["content-type"] == "text/plain; version=0.0.4; charset=utf-8")
        let text = scrape.body
        #expect(text.components(separatedBy: "# TYPE prelude_http_requests_total counter").count == 2)
        let requests = MetricsTests.samples(text, "prelude_http_requests_total")
        #expect(requests.contains(#"prelude_http_requests_total{route="/v1/admin/apps",method="GET",status="401"} 1"#))
        #expect(requests.contains(#"prelude_http_requests_total{route="unmatched",method="GET",status="400"} 1"#))
        #expect(requests.contains(#"prelude_http_requests_total{route="/healthz",method="GET",status="200"} 1"#))
        // The scraping connection itself is open while the gauge is read.
        let open = try #require(MetricsTests.samples(text, "prelude_http_open_connections").first)
        #expect((Int(open.split(separator: " ")[1]) ?? 0) >= 1)
        let writes = try #require(MetricsTests.samples(text, "prelude_db_write_duration_seconds_count").first)
        // The probe and the two event batches (each its own group commit here: sent one after the other).
        #expect(Int(writes.split(separator: " ")[1]) == 3)
        #expect(MetricsTests.samples(text, "prelude_events_ingested_total") == ["prelude_events_ingested_total 1"])
        #expect(
            MetricsTests.samples(text, "prelude_events_duplicates_total") == ["prelude_events_duplicates_total 1"])
        #expect(MetricsTests.samples(text, "prelude_event_batches_total") == ["prelude_event_batches_total 2"])
        #expect(MetricsTests.samples(text, "prelude_event_commits_total") == ["prelude_event_commits_total 2"])
        #expect(
            requests.contains(
                #"prelude_http_requests_total{route="/v1/apps/{app}/events",method="POST",status="202"} 2"#))
        for family in [
            "prelude_build_info", "prelude_events_ingested_total", "prelude_policy_live_revision",
            "prelude_http_request_duration_seconds", "process_resident_memory_bytes",
        ] {
            #expect(text.contains("# TYPE \(family) "), "missing \(family)")
        }
    }
}
