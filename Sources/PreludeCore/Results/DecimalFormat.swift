/// Fixed-point number formatting for reports, without Foundation's `String(format:)`.
enum DecimalFormat {
    /// `x` rounded to `digits` decimals (half away from zero on the binary value), e.g. `fixed(-0.04654, 3)` → "-0.047".
    static func fixed(_ x: Double, digits: Int) -> String {
        precondition(digits >= 0 && digits <= 15, "digits out of range")
        guard x.isFinite else { return x.isNaN ? "nan" : (x > 0 ? "inf" : "-inf") }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (abs(x) * scale).rounded()
        // Beyond 2⁶³ fixed notation is pointless for a report; fall back to Swift's own rendering.
        guard scaled < 9.0e18 else { return "\(x)" }
        let magnitude = UInt64(scaled)
        var text = String(magnitude)
        if text.count <= digits { text = String(repeating: "0", count: digits + 1 - text.count) + text }
        let sign = x < 0 && magnitude != 0 ? "-" : ""
        guard digits > 0 else { return sign + text }
        return sign + text.dropLast(digits) + "." + text.suffix(digits)
    }

    /// A rate in [0, 1] as a percentage with `digits` decimals: 0.4512 → "45.12%".
    static func percent(_ x: Double, digits: Int = 2) -> String {
        fixed(x * 100, digits: digits) + "%"
    }

    /// A difference of rates in percentage points with an explicit sign: 0.05 → "+5.00 pp".
    static func points(_ x: Double, digits: Int = 2) -> String {
        let text = fixed(x * 100, digits: digits)
        return (text.hasPrefix("-") ? text : "+" + text) + " pp"
    }

    /// A p-value with four decimals, or "<0.0001" below that.
    static func pValue(_ p: Double) -> String {
        p < 0.0001 ? "<0.0001" : fixed(p, digits: 4)
    }

    /// Swift's shortest round-tripping rendering ("0.001", "0.05").
    static func shortest(_ x: Double) -> String { "\(x)" }
}
