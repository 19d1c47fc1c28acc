/// Deterministic assignment of installs to experiment variants, bit-for-bit compatible with GrowthBook's SDKs
/// (`packages/sdk-js/src/util.ts`, spec version 0.5.x test cases), so a client in any language gets the same bucket.
///
/// The algorithm, in full, is documented with test vectors in docs/bucketing.md.
public enum Bucketing {
    /// A variant's half-open share [start, end) of the unit interval.
    public typealias BucketRange = (start: Double, end: Double)

    /// 32-bit FNV-1a over the string's UTF-16 code units (what JavaScript's `charCodeAt` yields).
    ///
    /// Offset basis 0x811C9DC5, prime 0x01000193 (16777619), arithmetic modulo 2³². For ASCII strings —
    /// install ids are UUIDs — code units are the bytes, so byte-oriented ports agree.
    public static func fnv1a32(_ s: String) -> UInt32 {
        fnv1a32(s, continuing: offsetBasis)
    }

    private static let offsetBasis: UInt32 = 0x811C_9DC5
    private static let prime: UInt32 = 0x0100_0193

    /// FNV-1a is a fold over the units, so `fnv1a32(a + b)` is `fnv1a32(b, continuing: fnv1a32(a))`: no
    /// concatenated string has to be built.
    private static func fnv1a32(_ s: String, continuing start: UInt32) -> UInt32 {
        // ASCII (install ids, experiment keys) has the same UTF-16 and UTF-8 units, and Swift strings are stored
        // as UTF-8: walking those bytes avoids transcoding to UTF-16 unit by unit.
        let contiguous = s.utf8.withContiguousStorageIfAvailable { bytes -> UInt32? in
            var hash = start
            for byte in bytes {
                guard byte < 0x80 else { return nil }
                hash ^= UInt32(byte)
                hash = hash &* prime
            }
            return hash
        }
        if let contiguous, let hash = contiguous { return hash }
        var hash = start
        for byte in s.utf8 {
            guard byte < 0x80 else { return fnv1a32(utf16: s, continuing: start) }
            hash ^= UInt32(byte)
            hash = hash &* prime
        }
        return hash
    }

    private static func fnv1a32(utf16 s: String, continuing start: UInt32) -> UInt32 {
        var hash = start
        for unit in s.utf16 {
            hash ^= UInt32(unit)
            hash = hash &* prime
        }
        return hash
    }

    /// `fnv1a32(String(number))`: the hash of the number's decimal digits, without making the string.
    private static func fnv1a32(decimal number: UInt32) -> UInt32 {
        var divisor: UInt32 = 1
        while number / divisor >= 10 { divisor *= 10 }
        var hash = offsetBasis
        var rest = number
        while divisor > 0 {
            hash ^= UInt32(UInt8(ascii: "0")) + rest / divisor
            hash = hash &* prime
            rest %= divisor
            divisor /= 10
        }
        return hash
    }

    /// A number in [0, 1) from a seed and a value, or `nil` for an unknown hashing version.
    ///
    /// - version 1 (GrowthBook's original, slightly biased): `(fnv1a32(value + seed) % 1000) / 1000`.
    /// - version 2 (unbiased): `(fnv1a32(decimal(fnv1a32(seed + value))) % 10000) / 10000`, where
    ///   `decimal` is the unsigned 32-bit result written in base 10 without leading zeros.
    public static func hash(seed: String, value: String, version: Int) -> Double? {
        switch version {
        case 1:
            return Double(fnv1a32(seed, continuing: fnv1a32(value)) % 1000) / 1000
        case 2:
            return Double(fnv1a32(decimal: fnv1a32(value, continuing: fnv1a32(seed))) % 10000) / 10000
        default:
            return nil
        }
    }

    /// ``hash(seed:value:version:)`` version 2 of an ASCII value given as its bytes (ASCII has the same UTF-16 and
    /// UTF-8 units, so this is the string's hash), with the seed's ``fnv1a32(_:)`` computed once by the caller
    /// (FNV-1a folds the seed first, then the value): for a server that holds an install id as request bytes.
    package static func hashVersion2(seedHash: UInt32, asciiValue bytes: UnsafeBufferPointer<UInt8>) -> Double {
        var hash = seedHash
        for byte in bytes {
            hash ^= UInt32(byte)
            hash = hash &* prime
        }
        return Double(fnv1a32(decimal: hash) % 10000) / 10000
    }

    /// GrowthBook's `getEqualWeights`: `count` weights of `1/count`; empty when `count <= 0`.
    public static func equalWeights(count: Int) -> [Double] {
        guard count > 0 else { return [] }
        return Array(repeating: 1 / Double(count), count: count)
    }

    /// GrowthBook's `getBucketRanges`: one half-open range [start, end) per variant.
    ///
    /// Coverage is clamped to [0, 1]. `weights` default to equal weights, and also fall back to them when
    /// their count differs from `count` or their sum is outside [0.99, 1.01]. Variant `i` starts at the
    /// sum of the weights before it and covers `coverage × weights[i]` from there, so reducing coverage
    /// never moves an install from one variant to another, it only leaves some out.
    public static func bucketRanges(count: Int, coverage: Double, weights: [Double]?) -> [BucketRange] {
        let coverage = coverage.isNaN ? 0 : min(max(coverage, 0), 1)
        let equal = equalWeights(count: count)
        var chosen = weights ?? equal
        if chosen.count != count { chosen = equal }
        let total = chosen.reduce(0, +)
        if !(total >= 0.99 && total <= 1.01) { chosen = equal }
        var cumulative = 0.0
        return chosen.map { weight in
            let start = cumulative
            cumulative += weight
            return (start: start, end: start + coverage * weight)
        }
    }

    /// GrowthBook's `chooseVariation`: the index of the first range with `start <= n < end`,
    /// or `nil` (GrowthBook's -1) when `n` falls outside every range — the install is not in the experiment.
    public static func chooseVariation(_ n: Double, ranges: [BucketRange]) -> Int? {
        ranges.firstIndex { n >= $0.start && n < $0.end }
    }

    /// The variant index for an install: hashing version 2 of `seed` (the experiment key) and `installId`,
    /// then ``bucketRanges(count:coverage:weights:)`` and ``chooseVariation(_:ranges:)``.
    ///
    /// Weights summing to 1 (±0.01) are used unchanged, exactly as GrowthBook does. Other non-negative
    /// weights with a positive sum (percentages such as `[20, 30, 50]`) are first divided by their sum.
    /// Returns `nil` when the install falls outside `coverage`, or when `weights` is empty, contains a
    /// negative or non-finite number, or sums to 0.
    public static func assign(seed: String, installId: String, weights: [Double], coverage: Double) -> Int? {
        guard let normalized = normalizedWeights(weights) else { return nil }
        guard let n = hash(seed: seed, value: installId, version: 2) else { return nil }
        return chooseVariation(
            n, ranges: bucketRanges(count: normalized.count, coverage: coverage, weights: normalized))
    }

    /// The weights `assign` uses: unchanged when they sum to 1 (±0.01), otherwise divided by their sum;
    /// `nil` when empty, negative, non-finite or summing to 0.
    public static func normalizedWeights(_ weights: [Double]) -> [Double]? {
        guard !weights.isEmpty, weights.allSatisfy({ $0.isFinite && $0 >= 0 }) else { return nil }
        let total = weights.reduce(0, +)
        guard total > 0 else { return nil }
        if total >= 0.99 && total <= 1.01 { return weights }
        return weights.map { $0 / total }
    }
}
