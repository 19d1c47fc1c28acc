/// Corrections for reading several comparisons with the control at once (docs/results.md, "More than two arms").
public enum MultipleComparisons {
    /// Holm's step-down adjusted p-values (Holm, "A simple sequentially rejective multiple test procedure",
    /// Scandinavian Journal of Statistics 6(2), 1979), in the order given.
    ///
    /// With the m p-values sorted ascending, p₍₁₎ ≤ … ≤ p₍ₘ₎, the adjusted value of the i-th is
    /// max over j ≤ i of min(1, (m − j + 1)·p₍ⱼ₎); rejecting every hypothesis whose adjusted value is below α keeps
    /// the family-wise error rate at α whatever the dependence between the tests. It is uniformly more powerful than
    /// Bonferroni (m·p) and is what statsmodels' `multipletests(method="holm")` returns. Ties keep their input order.
    /// Applied to always-valid p-values, the adjusted values stay valid at every look: each is a function of the
    /// current always-valid values only.
    public static func holm(_ pValues: [Double]) -> [Double] {
        let m = pValues.count
        let order = pValues.indices.sorted { pValues[$0] < pValues[$1] || (pValues[$0] == pValues[$1] && $0 < $1) }
        var adjusted = [Double](repeating: 1, count: m)
        var running = 0.0
        for (rank, index) in order.enumerated() {
            running = max(running, min(1, Double(m - rank) * pValues[index]))
            adjusted[index] = running
        }
        return adjusted
    }
}
