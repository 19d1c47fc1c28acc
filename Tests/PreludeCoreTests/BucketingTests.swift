import PreludeCore
import PreludeTestSupport
import Testing

@Suite struct BucketingTests {
    /// GrowthBook's cross-language vectors (`cases.json`, section `hash`: seed, value, version, expected),
    /// plus buckets from its `feature` section (experiment key as seed) and `inNamespace` hashes.
    @Test(
        arguments: [
            ("", "a", 1, 0.22),
            ("", "b", 1, 0.077),
            ("b", "a", 1, 0.946),
            ("ef", "d", 1, 0.652),
            ("asdf", "8952klfjas09ujk", 1, 0.549),
            ("", "123", 1, 0.011),
            ("", "___)((*\":&", 1, 0.563),
            ("seed", "a", 2, 0.0505),
            ("seed", "b", 2, 0.2696),
            ("foo", "ab", 2, 0.2575),
            ("foo", "def", 2, 0.2019),
            ("89123klj", "8952klfjas09ujkasdf", 2, 0.124),
            ("90850943850283058242805", "123", 2, 0.7516),
            ("()**(%$##$%#$#", "___)((*\":&", 2, 0.0128),
            ("feature", "123", 1, 0.863),
            ("feature", "456", 1, 0.178),
            ("feature", "fds", 1, 0.514),
            ("feature", "123", 2, 0.5231),
            // Computed here and by GrowthBook's JavaScript (docs/bucketing.md).
            ("camera-copy-2026", "3F2504E0-4F89-41D3-9A0C-0305E82C3301", 2, 0.832),
            ("camera-copy-2026", "7C9E6679-7425-40DE-944B-E07FC1F90AE7", 2, 0.3593),
            ("notifications-style", "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", 2, 0.4213),
        ] as [(String, String, Int, Double)])
    func hashMatchesPublishedVectors(seed: String, value: String, version: Int, expected: Double) {
        #expect(Bucketing.hash(seed: seed, value: value, version: version) == expected)
    }

    @Test func unknownHashVersionIsNil() {
        #expect(Bucketing.hash(seed: "abc", value: "def", version: 99) == nil)
        #expect(Bucketing.hash(seed: "abc", value: "def", version: 0) == nil)
    }

    /// Standard FNV-1a 32 check values, and non-ASCII input hashed by UTF-16 code unit as JavaScript does.
    @Test(arguments: [
        ("", UInt32(2_166_136_261)),
        ("a", 3_826_002_220),
        ("foobar", 0xBF9C_F968),
        ("café", 856_211_068),
        ("日本語", 1_409_693_518),
        ("👍", 2_284_729_663),
        ("seed3F2504E0-4F89-41D3-9A0C-0305E82C3301", 3_375_648_224),
    ])
    func fnv1aMatchesReference(input: String, expected: UInt32) {
        #expect(Bucketing.fnv1a32(input) == expected)
    }

    /// `hash` streams the seed and value and hashes the decimal digits without building strings; it must equal
    /// the formula written with strings, for ASCII and non-ASCII inputs alike.
    @Test func hashEqualsTheStringFormula() {
        var random = SplitMix64(state: 0xF00D)
        let alphabet = Array("abcXYZ019-_:é日👍")
        for _ in 0..<2000 {
            let seed = String((0..<random.below(12)).map { _ in alphabet[random.below(alphabet.count)] })
            let value = String((0..<random.below(40)).map { _ in alphabet[random.below(alphabet.count)] })
            let v1 = Double(Bucketing.fnv1a32(value + seed) % 1000) / 1000
            let v2 = Double(Bucketing.fnv1a32(String(Bucketing.fnv1a32(seed + value))) % 10000) / 10000
            #expect(Bucketing.hash(seed: seed, value: value, version: 1) == v1, "\(seed) \(value)")
            #expect(Bucketing.hash(seed: seed, value: value, version: 2) == v2, "\(seed) \(value)")
        }
    }

    /// The byte paths a server uses for install ids it holds as request bytes (the seed's hash computed once per
    /// experiment) must draw what the string formula draws, for every seed, id and weighting.
    @Test func asciiByteHashesEqualTheStringHash() {
        var random = SplitMix64(state: 0xBEEF)
        let alphabet = Array("abcXYZ0189-_:.")
        let seedAlphabet = Array("abcXYZ019-_:é日")
        for _ in 0..<2000 {
            let seed = String((0..<random.below(12)).map { _ in seedAlphabet[random.below(seedAlphabet.count)] })
            let value = String((0..<random.below(40)).map { _ in alphabet[random.below(alphabet.count)] })
            var bytesOfValue = value
            let weights = Bucketing.equalWeights(count: 1 + random.below(4))
            let inputs = ResolutionKeyShape.ExperimentInputs(
                seed: seed, weights: weights, coverage: Double(random.below(5)) / 4)
            bytesOfValue.withUTF8 { bytes in
                #expect(
                    Bucketing.hashVersion2(seedHash: Bucketing.fnv1a32(seed), asciiValue: bytes)
                        == Bucketing.hash(seed: seed, value: value, version: 2), "\(seed) \(value)")
                #expect(inputs.variant(forASCII: bytes) == inputs.variant(for: value), "\(seed) \(value)")
            }
        }
    }

    /// GrowthBook's `getBucketRange` vectors: (count, coverage, weights) → ranges.
    @Test(
        arguments: [
            ("normal 50/50", 2, 1.0, nil, [[0, 0.5], [0.5, 1]]),
            ("reduced coverage", 2, 0.5, nil, [[0, 0.25], [0.5, 0.75]]),
            ("zero coverage", 2, 0, nil, [[0, 0], [0.5, 0.5]]),
            ("4 variations", 4, 1, nil, [[0, 0.25], [0.25, 0.5], [0.5, 0.75], [0.75, 1]]),
            ("uneven weights", 2, 1, [0.4, 0.6], [[0, 0.4], [0.4, 1]]),
            ("uneven weights, 3 variations", 3, 1, [0.2, 0.3, 0.5], [[0, 0.2], [0.2, 0.5], [0.5, 1]]),
            ("uneven weights, reduced coverage", 3, 0.2, [0.2, 0.3, 0.5], [[0, 0.04], [0.2, 0.26], [0.5, 0.6]]),
            ("negative coverage", 2, -0.2, nil, [[0, 0], [0.5, 0.5]]),
            ("coverage above 1", 2, 1.5, nil, [[0, 0.5], [0.5, 1]]),
            ("weights sum below 1", 2, 1, [0.4, 0.1], [[0, 0.5], [0.5, 1]]),
            ("weights sum above 1", 2, 1, [0.7, 0.6], [[0, 0.5], [0.5, 1]]),
            (
                "weights.length not equal to num variations", 4, 1, [0.4, 0.4, 0.2],
                [[0, 0.25], [0.25, 0.5], [0.5, 0.75], [0.75, 1]]
            ),
            ("weights sum almost equals 1", 2, 1, [0.4, 0.5999], [[0, 0.4], [0.4, 0.9999]]),
        ] as [(String, Int, Double, [Double]?, [[Double]])])
    func bucketRangesMatchGrowthBook(
        name: String, count: Int, coverage: Double, weights: [Double]?, expected: [[Double]]
    ) {
        let ranges = Bucketing.bucketRanges(count: count, coverage: coverage, weights: weights)
        #expect(ranges.count == expected.count, "\(name)")
        for (range, pair) in zip(ranges, expected) {
            #expect(
                abs(range.start - pair[0]) < 1e-9 && abs(range.end - pair[1]) < 1e-9, "\(name): \(range) vs \(pair)")
        }
    }

    /// GrowthBook's `chooseVariation` vectors; GrowthBook's -1 is `nil` here.
    @Test(
        arguments: [
            ("even range, 0.2", 0.2, [[0, 0.5], [0.5, 1]], 0),
            ("even range, 0.4", 0.4, [[0, 0.5], [0.5, 1]], 0),
            ("even range, 0.6", 0.6, [[0, 0.5], [0.5, 1]], 1),
            ("even range, 0.8", 0.8, [[0, 0.5], [0.5, 1]], 1),
            ("even range, 0", 0, [[0, 0.5], [0.5, 1]], 0),
            ("even range, 0.5", 0.5, [[0, 0.5], [0.5, 1]], 1),
            ("reduced range, 0.2", 0.2, [[0, 0.25], [0.5, 0.75]], 0),
            ("reduced range, 0.4", 0.4, [[0, 0.25], [0.5, 0.75]], nil),
            ("reduced range, 0.6", 0.6, [[0, 0.25], [0.5, 0.75]], 1),
            ("reduced range, 0.8", 0.8, [[0, 0.25], [0.5, 0.75]], nil),
            ("reduced range, 0.25", 0.25, [[0, 0.25], [0.5, 0.75]], nil),
            ("reduced range, 0.5", 0.5, [[0, 0.25], [0.5, 0.75]], 1),
            ("zero range", 0.5, [[0, 0.5], [0.5, 0.5], [0.5, 1]], 2),
        ] as [(String, Double, [[Double]], Int?)])
    func chooseVariationMatchesGrowthBook(name: String, n: Double, ranges: [[Double]], expected: Int?) {
        let pairs = ranges.map { (start: $0[0], end: $0[1]) }
        #expect(Bucketing.chooseVariation(n, ranges: pairs) == expected, "\(name)")
    }

    /// (seed, install id, weights, coverage, expected variant) — computed here and by GrowthBook's JavaScript.
    @Test(
        arguments: [
            ("camera-copy-2026", "3F2504E0-4F89-41D3-9A0C-0305E82C3301", [0.5, 0.5], 1.0, 1),
            ("camera-copy-2026", "7C9E6679-7425-40DE-944B-E07FC1F90AE7", [0.5, 0.5], 1, 0),
            ("camera-copy-2026", "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", [0.5, 0.5], 1, 1),
            ("notifications-style", "3F2504E0-4F89-41D3-9A0C-0305E82C3301", [0.2, 0.3, 0.5], 1, 2),
            ("notifications-style", "7C9E6679-7425-40DE-944B-E07FC1F90AE7", [0.2, 0.3, 0.5], 1, 1),
            ("notifications-style", "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", [0.2, 0.3, 0.5], 1, 1),
            ("notifications-style", "16FD2706-8BAF-433B-82EB-8C7FADA847DA", [0.2, 0.3, 0.5], 0.5, 0),
            ("notifications-style", "16FD2706-8BAF-433B-82EB-8C7FADA847DA", [20, 30, 50], 0.5, 0),
            ("tracking-cadence", "install-1", [0.5, 0.5], 1, 0),
            ("tracking-cadence", "install-2", [50, 50], 1, 0),
            ("tracking-cadence", "install-3", [0.5, 0.5], 0.1, nil),
        ] as [(String, String, [Double], Double, Int?)])
    func assignsDocumentedVariants(seed: String, installId: String, weights: [Double], coverage: Double, expected: Int?)
    {
        #expect(Bucketing.assign(seed: seed, installId: installId, weights: weights, coverage: coverage) == expected)
    }

    @Test(arguments: [[Double](), [-0.5, 1.5], [0, 0], [Double.nan, 1], [Double.infinity, 1]])
    func refusesUnusableWeights(weights: [Double]) {
        #expect(Bucketing.assign(seed: "exp", installId: "install-1", weights: weights, coverage: 1) == nil)
    }

    @Test func normalizesPercentagesButKeepsFractionsUntouched() {
        #expect(Bucketing.normalizedWeights([20, 30, 50]) == [0.2, 0.3, 0.5])
        #expect(Bucketing.normalizedWeights([0.4, 0.5999]) == [0.4, 0.5999])
        #expect(Bucketing.normalizedWeights([1, 1, 2]) == [0.25, 0.25, 0.5])
    }

    static func installIds(_ count: Int) -> [String] {
        (0..<count).map { "install-\($0)-\($0 &* 2_654_435_761 % 1_000_003)" }
    }

    @Test(arguments: [[0.5, 0.5], [0.2, 0.3, 0.5], [0.1, 0.9], [0.25, 0.25, 0.25, 0.25]])
    func splitsOneHundredThousandInstallsWithinOnePercentOfWeights(weights: [Double]) {
        let ids = Self.installIds(100_000)
        var counts = Array(repeating: 0, count: weights.count)
        for id in ids {
            guard let variant = Bucketing.assign(seed: "split-check", installId: id, weights: weights, coverage: 1)
            else {
                Issue.record("full coverage must assign every install")
                return
            }
            counts[variant] += 1
        }
        for (count, weight) in zip(counts, weights) {
            #expect(abs(Double(count) / Double(ids.count) - weight) < 0.01, "\(counts) vs \(weights)")
        }
    }

    @Test func assignmentIsStableAndDependsOnTheSeed() {
        let ids = Self.installIds(1_000)
        let first = ids.map { Bucketing.assign(seed: "exp-a", installId: $0, weights: [0.5, 0.5], coverage: 1) }
        let again = ids.map { Bucketing.assign(seed: "exp-a", installId: $0, weights: [0.5, 0.5], coverage: 1) }
        let other = ids.map { Bucketing.assign(seed: "exp-b", installId: $0, weights: [0.5, 0.5], coverage: 1) }
        #expect(first == again)
        // Independent experiments: about half the installs land differently.
        let differing = zip(first, other).filter { $0 != $1 }.count
        #expect((400...600).contains(differing))
    }

    /// Moving weights only moves installs whose hash lies between an old and a new boundary.
    @Test(arguments: [
        ([0.5, 0.5], [0.4, 0.6]),
        ([0.2, 0.3, 0.5], [0.25, 0.25, 0.5]),
        ([0.34, 0.33, 0.33], [0.5, 0.25, 0.25]),
    ])
    func movingWeightsOnlyMovesInstallsAcrossABoundary(before: [Double], after: [Double]) {
        func boundaries(_ weights: [Double]) -> [Double] {
            Bucketing.bucketRanges(count: weights.count, coverage: 1, weights: weights).map(\.end)
        }
        let old = boundaries(before)
        let new = boundaries(after)
        var moved = 0
        for id in Self.installIds(20_000) {
            let n = Bucketing.hash(seed: "reweigh", value: id, version: 2)!
            let was = Bucketing.assign(seed: "reweigh", installId: id, weights: before, coverage: 1)
            let now = Bucketing.assign(seed: "reweigh", installId: id, weights: after, coverage: 1)
            guard was != now else { continue }
            moved += 1
            let crossed = zip(old, new).contains { n >= min($0, $1) && n < max($0, $1) }
            #expect(
                crossed, "install \(id) at \(n) moved from \(String(describing: was)) to \(String(describing: now))")
        }
        // The moved share is the mass between the boundaries, e.g. 10% for 50/50 → 40/60.
        let expectedShare = zip(old, new).map { abs($0 - $1) }.reduce(0, +)
        #expect(abs(Double(moved) / 20_000 - expectedShare) < 0.01)
    }

    @Test func reducingCoverageNeverChangesAVariantOnlyExcludes() {
        for id in Self.installIds(5_000) {
            let full = Bucketing.assign(seed: "coverage", installId: id, weights: [0.2, 0.3, 0.5], coverage: 1)
            let half = Bucketing.assign(seed: "coverage", installId: id, weights: [0.2, 0.3, 0.5], coverage: 0.5)
            if let half { #expect(half == full) }
        }
    }
}
