/// Fixed-point number formatting for reports, without Foundation's `String(format:)`.
package enum DecimalFormat {
    /// `x` rounded to `digits` decimals (half away from zero on the binary value), e.g. `fixed(-0.04654, 3)` → "-0.047".
    package static func fixed(_ x: Double, digits: Int) -> String {
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
    package static func percent(_ x: Double, digits: Int = 2) -> String {
        fixed(x * 100, digits: digits) + "%"
    }

    /// A difference of rates in percentage points with an explicit sign: 0.05 → "+5.00 pp".
    package static func points(_ x: Double, digits: Int = 2) -> String {
        let text = fixed(x * 100, digits: digits)
        return (text.hasPrefix("-") ? text : "+" + text) + " pp"
    }

    /// A p-value with four decimals, or "<0.0001" below that.
    package static func pValue(_ p: Double) -> String {
        p < 0.0001 ? "<0.0001" : fixed(p, digits: 4)
    }

    /// A positive number in scientific notation with `digits` decimals in the mantissa: 5.507e-89 → "5.5e-89".
    /// Numbers from 0.0001 up are written in fixed notation with four decimals instead.
    package static func scientific(_ x: Double, digits: Int = 1) -> String {
        guard x.isFinite, x > 0, x < 0.0001 else { return x == 0 ? "0" : fixed(x, digits: 4) }
        var exponent = Int((SpecialFunctions.log(x) / SpecialFunctions.log(10)).rounded(.down))
        var mantissa = x / power10(exponent)
        // log10 can land one off near exact powers of ten; nudge the mantissa back into [1, 10).
        if mantissa >= 10 {
            mantissa /= 10
            exponent += 1
        } else if mantissa < 1 {
            mantissa *= 10
            exponent -= 1
        }
        var text = fixed(mantissa, digits: digits)
        if text.hasPrefix("10") {  // 9.96 rounded up to "10.0"
            text = fixed(1, digits: digits)
            exponent += 1
        }
        return text + "e" + (exponent < 0 ? "-" : "+") + String(abs(exponent))
    }

    private static func power10(_ exponent: Int) -> Double {
        var result = 1.0
        for _ in 0..<abs(exponent) { result *= 10 }
        return exponent < 0 ? 1 / result : result
    }

    /// Swift's shortest round-tripping rendering ("0.001", "0.05").
    package static func shortest(_ x: Double) -> String { "\(x)" }
}
