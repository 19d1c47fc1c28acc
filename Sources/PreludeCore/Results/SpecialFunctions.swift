/// The special functions experiment statistics need, written in plain Swift so the core stays free of libm/Glibc.
///
/// Accuracy (checked against SciPy in `StatisticsTests` and `scripts/stats-reference.py`):
/// - ``exp(_:)`` and ``log(_:)``: within a few ulps (relative error below 1e-15) over the range used here.
/// - ``logGamma(_:)``: Lanczos approximation (g = 7, 9 coefficients), absolute error below 1e-14 for x ≥ 0.5.
/// - ``regularizedGammaQ(_:_:)`` / ``regularizedGammaP(_:_:)``: series for x < a + 1, modified-Lentz continued
///   fraction otherwise (Numerical Recipes §6.2), relative error below 1e-12, including far tails (Q is computed
///   directly, never as 1 − P, so tiny p-values keep their digits).
/// - ``normalCDF(_:)``: through Q(½, z²/2) = erfc(|z|/√2), same accuracy.
/// - ``normalQuantile(_:)``: Acklam's rational approximation (relative error 1.15e-9) refined by one Halley step
///   against ``normalCDF(_:)``, which brings it to about 1e-15.
package enum SpecialFunctions {
    // fdlibm's split of ln 2: the high part has 11 trailing zero bits, so k·ln2Hi is exact for |k| < 2048.
    private static let ln2Hi = 6.93147180369123816490e-01
    private static let ln2Lo = 1.90821492927058770002e-10
    private static let ln2 = 0.693147180559945309417232121458
    private static let sqrt2 = 1.41421356237309504880168872421
    private static let sqrtTwoPi = 2.50662827463100050241576528481

    /// eˣ. Range reduction x = k·ln 2 + r with |r| ≤ ln 2 / 2, a degree-16 Taylor polynomial for eʳ, then scaling by 2ᵏ.
    package static func exp(_ x: Double) -> Double {
        if x.isNaN { return x }
        if x > 709.782712893384 { return .infinity }
        if x < -745.1332191019412 { return 0 }
        let k = (x / ln2).rounded()
        let r = (x - k * ln2Hi) - k * ln2Lo
        // Horner form of Σ rⁿ/n! for n ≤ 16; the first omitted term is below 1e-20 for |r| ≤ 0.35.
        var sum = 1.0
        var n = 16.0
        while n >= 1 {
            sum = 1 + sum * r / n
            n -= 1
        }
        let exponent = Int(k)
        // Two steps so that 2ᵏ itself never overflows or underflows before the product is formed.
        let half = exponent / 2
        return sum * Double(sign: .plus, exponent: half, significand: 1)
            * Double(sign: .plus, exponent: exponent - half, significand: 1)
    }

    /// The natural logarithm. x = m·2ᵉ with m in [√½, √2], then ln m = 2·atanh((m−1)/(m+1)) by its series.
    package static func log(_ x: Double) -> Double {
        if x.isNaN || x < 0 { return .nan }
        if x == 0 { return -.infinity }
        if x.isInfinite { return x }
        var m = x.significand
        var e = Double(x.exponent)
        if m > sqrt2 {
            m /= 2
            e += 1
        }
        let s = (m - 1) / (m + 1)
        let s2 = s * s
        // |s| ≤ 0.1716, s² ≤ 0.0295: 13 odd terms leave an error below 1e-20.
        var series = 0.0
        var k = 25.0
        while k >= 1 {
            series = 1 / k + s2 * series
            k -= 2
        }
        return e * ln2Hi + (e * ln2Lo + 2 * s * series)
    }

    // Lanczos coefficients for g = 7, n = 9 (Godfrey), as widely published.
    private static let lanczosG = 7.0
    private static let lanczos: [Double] = [
        0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
        -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
        1.5056327351493116e-7,
    ]

    /// ln Γ(x) for x > 0 (Lanczos approximation); NaN otherwise.
    package static func logGamma(_ x: Double) -> Double {
        guard x > 0, x.isFinite else { return x.isInfinite && x > 0 ? .infinity : .nan }
        // Below ½ the approximation is less accurate; Γ(x) = Γ(x+1)/x moves the argument up.
        if x < 0.5 { return logGamma(x + 1) - log(x) }
        let z = x - 1
        var a = lanczos[0]
        let t = z + lanczosG + 0.5
        for i in 1..<lanczos.count { a += lanczos[i] / (z + Double(i)) }
        return 0.5 * log(2 * Double.pi) + (z + 0.5) * log(t) - t + log(a)
    }

    /// The regularized lower incomplete gamma function P(a, x) = γ(a, x)/Γ(a), for a > 0 and x ≥ 0.
    package static func regularizedGammaP(_ a: Double, _ x: Double) -> Double {
        guard a > 0, x >= 0, !x.isNaN else { return .nan }
        if x == 0 { return 0 }
        if x.isInfinite { return 1 }
        return x < a + 1 ? gammaSeries(a, x) : 1 - gammaContinuedFraction(a, x)
    }

    /// The regularized upper incomplete gamma function Q(a, x) = 1 − P(a, x), for a > 0 and x ≥ 0.
    package static func regularizedGammaQ(_ a: Double, _ x: Double) -> Double {
        guard a > 0, x >= 0, !x.isNaN else { return .nan }
        if x == 0 { return 1 }
        if x.isInfinite { return 0 }
        return x < a + 1 ? 1 - gammaSeries(a, x) : gammaContinuedFraction(a, x)
    }

    /// e^(−x) xᵃ / Γ(a), the common prefactor of both expansions, in log space to avoid overflow.
    private static func gammaPrefactor(_ a: Double, _ x: Double) -> Double {
        exp(-x + a * log(x) - logGamma(a))
    }

    /// P(a, x) by its power series; converges quickly for x < a + 1.
    private static func gammaSeries(_ a: Double, _ x: Double) -> Double {
        var ap = a
        var term = 1 / a
        var sum = term
        for _ in 0..<10_000 {
            ap += 1
            term *= x / ap
            sum += term
            if abs(term) < abs(sum) * 1e-17 { break }
        }
        return sum * gammaPrefactor(a, x)
    }

    /// Q(a, x) by its continued fraction (modified Lentz); converges quickly for x ≥ a + 1.
    private static func gammaContinuedFraction(_ a: Double, _ x: Double) -> Double {
        let tiny = 1e-300
        var b = x + 1 - a
        var c = 1 / tiny
        var d = 1 / b
        var h = d
        var i = 1.0
        while i < 10_000 {
            let an = -i * (i - a)
            b += 2
            d = an * d + b
            if abs(d) < tiny { d = tiny }
            c = b + an / c
            if abs(c) < tiny { c = tiny }
            d = 1 / d
            let delta = d * c
            h *= delta
            if abs(delta - 1) < 1e-16 { break }
            i += 1
        }
        return h * gammaPrefactor(a, x)
    }

    /// The standard normal cumulative distribution Φ(z), through Φ(−|z|) = ½·Q(½, z²/2).
    package static func normalCDF(_ z: Double) -> Double {
        if z.isNaN { return z }
        let tail = 0.5 * regularizedGammaQ(0.5, z * z / 2)
        return z < 0 ? tail : 1 - tail
    }

    /// The two-sided tail probability P(|Z| ≥ |z|) = Q(½, z²/2) of a standard normal, computed without cancellation.
    package static func normalTwoSidedPValue(_ z: Double) -> Double {
        if z.isNaN { return z }
        return regularizedGammaQ(0.5, z * z / 2)
    }

    /// The survival function P(X ≥ x) of a chi-square distribution with `degreesOfFreedom` > 0: Q(k/2, x/2).
    package static func chiSquareSurvival(_ x: Double, degreesOfFreedom: Int) -> Double {
        precondition(degreesOfFreedom > 0, "chi-square needs at least one degree of freedom")
        if x <= 0 { return 1 }
        return regularizedGammaQ(Double(degreesOfFreedom) / 2, x / 2)
    }

    // Acklam's coefficients (P. J. Acklam, "An algorithm for computing the inverse normal cumulative
    // distribution function", 2003).
    private static let acklamA: [Double] = [
        -3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
        1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00,
    ]
    private static let acklamB: [Double] = [
        -5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
        6.680131188771972e+01, -1.328068155288572e+01,
    ]
    private static let acklamC: [Double] = [
        -7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
        -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00,
    ]
    private static let acklamD: [Double] = [
        7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00, 3.754408661907416e+00,
    ]

    /// The standard normal quantile Φ⁻¹(p) for p in (0, 1); −∞ at 0, +∞ at 1, NaN outside [0, 1].
    package static func normalQuantile(_ p: Double) -> Double {
        guard p >= 0, p <= 1 else { return .nan }
        if p == 0 { return -.infinity }
        if p == 1 { return .infinity }
        // Work in the lower half, where p is represented with full relative precision; 1 − p is exact for p ≥ ½.
        if p > 0.5 { return -normalQuantile(1 - p) }
        if p == 0.5 { return 0 }
        var x: Double
        if p < 0.02425 {
            let q = (-2 * log(p)).squareRoot()
            x =
                (((((acklamC[0] * q + acklamC[1]) * q + acklamC[2]) * q + acklamC[3]) * q + acklamC[4]) * q
                    + acklamC[5])
                / ((((acklamD[0] * q + acklamD[1]) * q + acklamD[2]) * q + acklamD[3]) * q + 1)
        } else {
            let q = p - 0.5
            let r = q * q
            x =
                (((((acklamA[0] * r + acklamA[1]) * r + acklamA[2]) * r + acklamA[3]) * r + acklamA[4]) * r
                    + acklamA[5]) * q
                / (((((acklamB[0] * r + acklamB[1]) * r + acklamB[2]) * r + acklamB[3]) * r + acklamB[4]) * r + 1)
        }
        // One Halley step on Φ(x) − p = 0 (Acklam's suggested refinement).
        let e = normalCDF(x) - p
        let u = e * sqrtTwoPi * exp(x * x / 2)
        x -= u / (1 + x * u / 2)
        return x
    }
}
