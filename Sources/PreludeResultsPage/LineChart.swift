import PreludeCore

/// A line chart over a numeric x axis (days, or anything ordered), drawn by the server as inline SVG: no script,
/// no font, no external asset. Generic on purpose: the experiment results page draws differences with their
/// confidence sequences and cumulative exposures with it, and a rollout page can add its steps and guard decisions
/// as ``Marker``s on the same time axis.
///
/// Colours come from CSS classes (`s0`…`s5` per series, `band`, `grid`, `marker`), so the page's light and dark
/// styles apply; the SVG scales to its container's width (`viewBox`, `width="100%"`), so it never overflows.
public struct LineChart: Sendable {
    /// One line, optionally with a band around it (a confidence sequence).
    public struct Series: Sendable {
        /// The legend's label.
        public var name: String
        /// (x, y) points in x order.
        public var points: [(x: Double, y: Double)]
        /// Lower and upper bound at each point's x (same count as ``points``), or nil for a plain line.
        public var band: [(lower: Double, upper: Double)]?

        /// Creates a series.
        public init(name: String, points: [(x: Double, y: Double)], band: [(lower: Double, upper: Double)]? = nil) {
            precondition(band == nil || band!.count == points.count, "one band per point")
            self.name = name
            self.points = points
            self.band = band
        }
    }

    /// A vertical line at `x` with a label: a rollout step, a guard decision, a configuration change.
    public struct Marker: Sendable {
        /// Where.
        public var x: Double
        /// What happened there.
        public var label: String

        /// Creates a marker.
        public init(x: Double, label: String) {
            self.x = x
            self.label = label
        }
    }

    /// The chart's `id` and accessible title.
    public var id: String
    /// The accessible title (`<title>` and `aria-label`).
    public var title: String
    /// The lines, drawn in order.
    public var series: [Series]
    /// Vertical markers.
    public var markers: [Marker]
    /// Labels an x value (a day number → `2026-11-26`).
    public var xLabel: @Sendable (Double) -> String
    /// Labels a y value (a fraction → `+2.0 pp`, a count → `12000`).
    public var yLabel: @Sendable (Double) -> String
    /// Whether y = 0 is always in range and drawn as a reference line (differences).
    public var zeroLine: Bool

    /// Creates a chart.
    public init(
        id: String, title: String, series: [Series], markers: [Marker] = [],
        xLabel: @escaping @Sendable (Double) -> String, yLabel: @escaping @Sendable (Double) -> String,
        zeroLine: Bool = false
    ) {
        self.id = id
        self.title = title
        self.series = series
        self.markers = markers
        self.xLabel = xLabel
        self.yLabel = yLabel
        self.zeroLine = zeroLine
    }

    /// The round step nearest above `raw`: 1, 2, 2.5 or 5 × 10ⁿ.
    package static func niceStep(_ raw: Double) -> Double {
        guard raw.isFinite, raw > 0 else { return 1 }
        var magnitude = 1.0
        while magnitude * 10 <= raw { magnitude *= 10 }
        while magnitude > raw { magnitude /= 10 }
        for factor in [1.0, 2.0, 2.5, 5.0, 10.0] where magnitude * factor >= raw * (1 - 1e-12) {
            return magnitude * factor
        }
        return magnitude * 10
    }

    static let width = 640.0
    static let height = 240.0
    static let left = 64.0
    static let right = 16.0
    static let top = 12.0
    static let bottom = 28.0

    /// The `<svg>` element, then its legend as an HTML list.
    public func render() -> String {
        let xs = series.flatMap { $0.points.map { $0.x } } + markers.map(\.x)
        var ys = series.flatMap { $0.points.map { $0.y } }
        for line in series { if let band = line.band { ys += band.flatMap { [$0.lower, $0.upper] } } }
        if zeroLine { ys.append(0) }
        ys = ys.filter(\.isFinite)
        guard let minX = xs.min(), let maxX = xs.max(), let minY = ys.min(), let maxY = ys.max() else {
            return "<p class=\"empty\" id=\"\(HTMLEscaping.escape(id))\">No data yet.</p>"
        }
        let x0 = minX == maxX ? minX - 0.5 : minX
        let x1 = minX == maxX ? maxX + 0.5 : maxX
        // Round ticks: a step of 1, 2, 2.5 or 5 × 10ⁿ giving about four intervals, the range widened to whole steps,
        // so every label is a round value and y = 0, when in range, is one of them (labelled).
        let span = minY == maxY ? max(abs(minY), 1) : maxY - minY
        let step = Self.niceStep(span / 4)
        let y0 = (minY / step).rounded(.down) * step - (minY == maxY ? step : 0)
        let y1 = (maxY / step).rounded(.up) * step + (minY == maxY ? step : 0)
        let plotWidth = Self.width - Self.left - Self.right
        let plotHeight = Self.height - Self.top - Self.bottom
        func px(_ x: Double) -> Double { Self.left + (x - x0) / (x1 - x0) * plotWidth }
        func py(_ y: Double) -> Double { Self.top + (1 - (y - y0) / (y1 - y0)) * plotHeight }
        func n(_ v: Double) -> String { DecimalFormat.fixed(v, digits: 1) }

        var svg =
            "<svg class=\"chart\" id=\"\(HTMLEscaping.escape(id))\" viewBox=\"0 0 \(Int(Self.width)) \(Int(Self.height))\" "
            + "width=\"100%\" role=\"img\" aria-label=\"\(HTMLEscaping.escape(title))\" "
            + "preserveAspectRatio=\"xMidYMid meet\"><title>\(HTMLEscaping.escape(title))</title>"
        // Grid and y ticks at every whole step. On a range narrower than the label's precision neighbouring levels
        // would read the same; such a level gets its grid line but no second, identical label.
        var lastTickLabel: String?
        let levels = Int(((y1 - y0) / step).rounded())
        for index in 0...levels {
            var value = y0 + Double(index) * step
            if abs(value) < step * 1e-9 { value = 0 }
            let y = py(value)
            svg +=
                "<line class=\"grid\" x1=\"\(n(Self.left))\" x2=\"\(n(Self.width - Self.right))\" y1=\"\(n(y))\" y2=\"\(n(y))\"/>"
            let label = yLabel(value)
            guard label != lastTickLabel else { continue }
            lastTickLabel = label
            svg +=
                "<text class=\"tick\" x=\"\(n(Self.left - 6))\" y=\"\(n(y + 4))\" text-anchor=\"end\">"
                + HTMLEscaping.escape(label) + "</text>"
        }
        if zeroLine {
            svg +=
                "<line class=\"zero\" x1=\"\(n(Self.left))\" x2=\"\(n(Self.width - Self.right))\" y1=\"\(n(py(0)))\" y2=\"\(n(py(0)))\"/>"
        }
        // X ticks: the first, the last and up to three between, on distinct x values.
        let tickXs = Self.xTicks(xs)
        for (index, x) in tickXs.enumerated() {
            let anchor =
                tickXs.count == 1 ? "middle" : index == 0 ? "start" : index == tickXs.count - 1 ? "end" : "middle"
            svg +=
                "<text class=\"tick\" x=\"\(n(px(x)))\" y=\"\(n(Self.height - 8))\" text-anchor=\"\(anchor)\">"
                + HTMLEscaping.escape(xLabel(x)) + "</text>"
        }
        for (index, line) in series.enumerated() {
            let style = "s\(index % 6)"
            if let band = line.band, band.count == 1, let point = line.points.first {
                // One day: a band has no width, so the interval is drawn as a bar around the point.
                let top = py(band[0].upper)
                let height = max(py(band[0].lower) - top, 1)
                svg +=
                    "<rect class=\"band \(style)\" x=\"\(n(px(point.x) - 6))\" y=\"\(n(top))\" width=\"12\" "
                    + "height=\"\(n(height))\"/>"
            } else if let band = line.band, !band.isEmpty {
                var path = ""
                for (i, point) in line.points.enumerated() {
                    path += (i == 0 ? "M" : "L") + n(px(point.x)) + "," + n(py(band[i].upper))
                }
                for (i, point) in line.points.enumerated().reversed() {
                    path += "L" + n(px(point.x)) + "," + n(py(band[i].lower))
                }
                svg += "<path class=\"band \(style)\" d=\"\(path)Z\"/>"
            }
            let points = line.points.map { n(px($0.x)) + "," + n(py($0.y)) }.joined(separator: " ")
            svg +=
                "<polyline class=\"line \(style)\" data-series=\"\(HTMLEscaping.escape(line.name))\" points=\"\(points)\"/>"
            for point in line.points {
                svg += "<circle class=\"dot \(style)\" cx=\"\(n(px(point.x)))\" cy=\"\(n(py(point.y)))\" r=\"2.5\"/>"
            }
        }
        for marker in markers {
            let x = n(px(marker.x))
            svg +=
                "<line class=\"marker\" x1=\"\(x)\" x2=\"\(x)\" y1=\"\(n(Self.top))\" y2=\"\(n(Self.height - Self.bottom))\">"
                + "<title>\(HTMLEscaping.escape(marker.label))</title></line>"
        }
        return svg + "</svg>" + legend()
    }

    /// The x values that get a tick: every distinct one when there are five at most, else the first, the last and
    /// three evenly between.
    private static func xTicks(_ xs: [Double]) -> [Double] {
        let distinct = Array(Set(xs)).sorted()
        guard distinct.count > 5 else { return distinct }
        return (0...4).map { distinct[(distinct.count - 1) * $0 / 4] }
    }

    /// The legend: a swatch per series, then each marker with its date.
    private func legend() -> String {
        var legend = "<ul class=\"legend\">"
        for (index, line) in series.enumerated() {
            legend += "<li><span class=\"swatch s\(index % 6)\"></span>\(HTMLEscaping.escape(line.name))</li>"
        }
        for marker in markers {
            legend +=
                "<li><span class=\"swatch marker\"></span>\(HTMLEscaping.escape(xLabel(marker.x))): "
                + "\(HTMLEscaping.escape(marker.label))</li>"
        }
        return legend + "</ul>"
    }
}
