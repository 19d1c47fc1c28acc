import Foundation
import PreludeCore
import PreludeHTTP
import PreludeResultsPage
import PreludeStore
import PreludeStoreTestSupport
import PreludeTestSupport
import Testing

@testable import PreludeService

/// The results page (issue 26): the same route with `Accept: text/html`, self-contained, every arm with the JSON's
/// figures, charts drawn by the server. The browser half (layout, overflow, dark mode) is
/// scripts/results-browser-test.py.
@Suite struct ResultsPageTests {
    static let path = "/v1/admin/apps/demo/experiments/photos-ask-vs-picker/results"

    @Test func acceptNegotiation() {
        #expect(!AcceptMediaType.prefersHTML(nil))
        #expect(!AcceptMediaType.prefersHTML("*/*"))
        #expect(!AcceptMediaType.prefersHTML("application/json"))
        #expect(!AcceptMediaType.prefersHTML("application/json, text/html"))
        #expect(!AcceptMediaType.prefersHTML("text/html;q=0"))
        #expect(AcceptMediaType.prefersHTML("text/html"))
        #expect(AcceptMediaType.prefersHTML("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"))
        #expect(AcceptMediaType.prefersHTML("application/json;q=0.5, text/*"))
    }

    @Test func thePageShowsEveryArmWithTheJSONsFigures() throws {
        let service = try ResultsEndpointTests.Service()
        let (events, _) = try TaskTraffic.events(installs: 1_200, seed: 0xD00D)
        let third = events.count / 3
        for (index, start) in [0, third, 2 * third].enumerated() {
            let end = index == 2 ? events.count : start + third
            try ResultsFixture.ingest(
                Array(events[start..<end]), into: service.service.database,
                receivedAt: 1_764_115_200_000 + Int64(index) * 86_400_000)
        }
        let page = try service.client.get(
            Self.path, headers: [("Authorization", "Bearer \(ResultsEndpointTests.secret)"), ("Accept", "text/html")])
        #expect(page.status == 200)
        #expect(page["Content-Type"] == "text/html; charset=utf-8")
        #expect(page["Content-Security-Policy"] == "default-src 'none'; style-src 'unsafe-inline'")
        #expect(page["Vary"] == "Accept")
        let html = page.text
        // Self-contained: nothing to fetch, nothing to run.
        for forbidden in ["<script", "src=", "href=", "@import", "url(", "@font-face"] {
            #expect(!html.contains(forbidden), "\(forbidden)")
        }
        // Same request without Accept: the JSON, whose figures the page carries in data-value.
        let json = try JSONParser().parse(try service.get(Self.path).text)
        guard case .array(let variants) = json["variants"] ?? .null else { throw ResultsFixture.Failure.notAnObject }
        #expect(variants.count == 2)
        for variant in variants {
            guard case .string(let name) = variant["name"] ?? .null else { continue }
            #expect(html.contains("<tr data-variant=\"\(name)\""))
            for (field, value) in [
                ("grant.rate", variant["grantRate"]), ("task.rate", variant["taskCompletionRate"]),
                ("funnel.exposed", variant["funnel"]?["exposed"]),
                ("funnel.taskCompleted", variant["funnel"]?["taskCompleted"]),
            ] {
                let text = value.map { $0.serialized() } ?? "?"
                #expect(html.contains("data-field=\"\(field)\" data-value=\"\(text)\""), "\(name) \(field) \(text)")
            }
        }
        #expect(html.contains("data-field=\"task.verdict\" data-value=\"better\""))
        // Health checks come first, then the arms, then the charts.
        let order = ["id=\"health\"", "id=\"arms\"", "id=\"difference\"", "id=\"exposures\""].map {
            html.range(of: $0)?.lowerBound
        }
        #expect(order.allSatisfy { $0 != nil })
        #expect(order.compactMap { $0 } == order.compactMap { $0 }.sorted())
        for chart in ["chart-grant-difference", "chart-task-difference", "chart-exposures", "chart-events"] {
            #expect(html.contains("<svg class=\"chart\" id=\"\(chart)\""), "\(chart)")
        }
        // Three days of data: the exposures chart has one point per day and arm.
        guard case .array(let timeline) = json["timeline"] ?? .null else { throw ResultsFixture.Failure.notAnObject }
        #expect(timeline.count == 3)
        #expect(timeline.last?["exposed"] == .array(variants.map { $0["funnel"]?["exposed"] ?? .null }))
        #expect(html.contains("data-check=\"sample-ratio\" data-status=\"ok\""))
        #expect(html.contains("data-check=\"mislabelled\" data-status=\"ok\""))
    }

    /// The confidence sequence drawn per day is the one the report computes from that day's running counts: the
    /// last day equals the report's own figures.
    @Test func theTimelineEndsAtTheReport() throws {
        let fixture = try ResultsFixture()
        let (events, _) = try TaskTraffic.events(installs: 900, seed: 0xBEEF)
        try fixture.ingest(Array(events[..<300]), receivedAt: 1_764_115_200_000)
        try fixture.ingest(Array(events[300...]), receivedAt: 1_764_115_200_000 + 3 * 86_400_000)
        let results = try ExperimentResultsReader(database: fixture.database).results(
            appID: ResultsFixture.app, experiment: TaskTraffic.experiment)
        let timeline = try #require(results.timeline)
        #expect(timeline.days.map(\.day) == [20_418, 20_421])
        #expect(ExperimentTimeline.date(ofDay: 20_418) == "2025-11-26")
        let last = try #require(timeline.days.last)
        #expect(last.funnels == results.report.variants.map(\.funnel))
        let picker = try #require(results.report.variants[1].comparison)
        #expect(last.grant[1]?.interval == picker.sequentialInterval)
        #expect(last.task[1]?.interval == results.report.variants[1].taskComparison?.sequentialInterval)
        #expect(timeline.days.reduce(0) { $0 + $1.events } == events.count)
    }

    @Test func aChartTakesAnySeriesAndMarkers() {
        let chart = LineChart(
            id: "rollout", title: "Exposed <installs>",
            series: [LineChart.Series(name: "new", points: [(0, 0), (1, 10), (2, 30)])],
            markers: [LineChart.Marker(x: 1, label: "step 2: 25 %")], xLabel: { "day \(Int($0))" },
            yLabel: { String(Int($0)) })
        let svg = chart.render()
        #expect(svg.hasPrefix("<svg class=\"chart\" id=\"rollout\""))
        #expect(svg.contains("aria-label=\"Exposed &lt;installs&gt;\""))
        #expect(svg.contains("<polyline class=\"line s0\" data-series=\"new\""))
        #expect(svg.contains("class=\"marker\""))
        #expect(svg.contains("step 2: 25 %"))
        #expect(
            LineChart(id: "e", title: "t", series: [], xLabel: { "\($0)" }, yLabel: { "\($0)" }).render()
                .contains("No data yet"))
    }

    /// A range narrower than the labels' precision (0.3 pp of grant rate over a week) reads the same at
    /// neighbouring levels: each label appears once, not five times down the axis.
    @Test func narrowRangesDoNotRepeatTickLabels() {
        let chart = LineChart(
            id: "narrow", title: "t", series: [LineChart.Series(name: "a", points: [(0, 0.5001), (1, 0.5003)])],
            xLabel: { "\(Int($0))" }, yLabel: { String(format: "%.2f", $0) })
        let svg = chart.render()
        let ticks = svg.components(separatedBy: "<text class=\"tick\"").dropFirst()
            .filter { $0.contains("text-anchor=\"end\"") }
            .map { $0.split(separator: ">")[1].split(separator: "<")[0] }
        #expect(!ticks.isEmpty)
        #expect(Set(ticks).count == ticks.count, "repeated y labels: \(ticks)")
        let grid = svg.components(separatedBy: "class=\"grid\"").count - 1
        #expect((3...7).contains(grid), "about four intervals: \(grid) lines")
    }

    /// An interval excluding zero beside "not significant yet" says why (issue 40); no note when they agree.
    @Test func aCIExcludingZeroBesideNotSignificantYetIsExplained() throws {
        func page(_ granted: Int) throws -> String {
            let report = try ExperimentAnalysis.analyze(
                experimentKey: "e", feature: "camera",
                variants: [
                    ("control", 50, FunnelCounts(exposed: 2000, systemGranted: 800, granted: 800)),
                    ("new", 50, FunnelCounts(exposed: 2000, systemGranted: granted, granted: granted)),
                ], controlName: "control")
            return ResultsPageRenderer.render(ResultsPageInput(app: "a", report: report, configuration: ""))
        }
        let waiting = try page(870)
        #expect(waiting.contains("Why new is not significant yet although its 95 % CI of the difference excludes zero"))
        #expect(!(try page(800)).contains("class=\"note waiting\""), "a CI across zero needs no note")
        #expect(!(try page(1000)).contains("class=\"note waiting\""), "a decided verdict needs no note")
    }

    /// Ticks are round values, and a difference chart labels its zero line (issue 40).
    @Test func ticksAreRoundAndZeroIsLabelled() {
        let chart = LineChart(
            id: "round", title: "t", series: [LineChart.Series(name: "a", points: [(0, -0.0137), (1, 0.0412)])],
            xLabel: { "\(Int($0))" }, yLabel: { String(format: "%+.1f pp", $0 * 100) }, zeroLine: true)
        let ticks = chart.render().components(separatedBy: "<text class=\"tick\"").dropFirst()
            .filter { $0.contains("text-anchor=\"end\"") }
            .map { String($0.split(separator: ">")[1].split(separator: "<")[0]) }
        #expect(ticks.contains("+0.0 pp"), "\(ticks)")
        let yTicks = ticks.filter { $0.hasSuffix("pp") }
        #expect(
            yTicks.count >= 3 && yTicks.allSatisfy { $0.hasSuffix("0 pp") || $0.hasSuffix("5 pp") }, "round: \(ticks)")
        #expect(LineChart.niceStep(0.0137) == 0.02 && LineChart.niceStep(230) == 250 && LineChart.niceStep(7) == 10)
    }

    /// One day of data: the confidence interval is still drawn (a bar), not lost in a zero-width band.
    @Test func oneDayOfDataDrawsItsInterval() {
        let chart = LineChart(
            id: "one", title: "t",
            series: [LineChart.Series(name: "b", points: [(3, 0.02)], band: [(lower: -0.01, upper: 0.05)])],
            xLabel: { "\(Int($0))" }, yLabel: { String(format: "%.2f", $0) }, zeroLine: true)
        let svg = chart.render()
        #expect(svg.contains("<rect class=\"band s0\""), "a bar for the interval: \(svg)")
        #expect(!svg.contains("<path class=\"band"))
    }
}
