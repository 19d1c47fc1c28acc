import Foundation
import PreludeCore
import Testing

@Suite struct SemanticVersionTests {
    @Test(arguments: [
        ("17", 17, 0, 0, [String](), [String]()),
        ("17.4", 17, 4, 0, [], []),
        ("17.4.1", 17, 4, 1, [], []),
        ("0.0.0", 0, 0, 0, [], []),
        ("18.0.0-beta.2", 18, 0, 0, ["beta", "2"], []),
        ("1.2.3-rc.1+build.7", 1, 2, 3, ["rc", "1"], ["build", "7"]),
        ("1.2.3+001", 1, 2, 3, [], ["001"]),
        ("1.0.0--", 1, 0, 0, ["-"], []),
        ("1.0.0-0A.is.legal", 1, 0, 0, ["0A", "is", "legal"], []),
        ("10000.0.0", 10000, 0, 0, [], []),
    ])
    func parsesComponents(
        text: String, major: Int, minor: Int, patch: Int, preRelease: [String], build: [String]
    ) throws {
        let version = try #require(SemanticVersion(text))
        #expect(version.major == major)
        #expect(version.minor == minor)
        #expect(version.patch == patch)
        #expect(version.preRelease == preRelease)
        #expect(version.build == build)
        #expect(version.description == text)
    }

    @Test(arguments: [
        "", "v1.2.3", "1.2.3.4", "1..2", "1.2.", ".1", "01.2.3", "1.02.3", "1.2.03", "1.2.3-", "1.2.3-01",
        "1.2.3-beta..1", "1.2.3+", "1.2.3+a..b", "1.2.3-be ta", " 1.2.3", "1.2.3 ", "a.b.c", "1.2.3-é",
        "-1.2.3", "99999999999999999999.0.0", "1.2.3+build+again", "9223372036854775808", "1.9223372036854775808",
        "\u{0661}\u{0667}", "17.4\u{301}", "17\u{301}.4", "1.2.3+\u{301}", "1.2.3-\u{301}a", "1.2.3+a.\u{FF41}", "17.",
        "1.2.3-a.", "1.2.3+.a", "0x1", "1e2", "+1", "1.2.3-+",
    ])
    func rejectsMalformed(text: String) {
        #expect(SemanticVersion(text) == nil)
    }

    @Test func largestComponentsAndWrittenFormRoundTrip() throws {
        let version = try #require(SemanticVersion("9223372036854775807.0.1-rc-1.0a+b-9.007"))
        #expect(version.major == Int.max)
        #expect(version.minor == 0 && version.patch == 1)
        #expect(version.preRelease == ["rc-1", "0a"])
        #expect(version.build == ["b-9", "007"])
        #expect(version.description == "9223372036854775807.0.1-rc-1.0a+b-9.007")
        #expect(SemanticVersion("0")?.description == "0")
        #expect(SemanticVersion("17.4")?.description == "17.4")
    }

    /// Pairs (lower, higher), strictly ordered by semver §11, incl. GrowthBook's `versionCompare` cases
    /// that are valid semver 2.0.
    @Test(arguments: [
        ("17", "17.0.1"),
        ("17.4", "17.4.1"),
        ("17.4.1", "17.10"),
        ("9", "10"),
        ("9999.0.0", "10000.0.0"),
        ("0.9.99", "1.0.0"),
        ("0.9.0", "0.10.0"),
        ("18.0.0-beta.2", "18"),
        ("18.0.0-beta.2", "18.0.0-beta.11"),
        ("1.0.0-alpha", "1.0.0-alpha.1"),
        ("1.0.0-alpha.1", "1.0.0-alpha.beta"),
        ("1.0.0-alpha.beta", "1.0.0-beta"),
        ("1.0.0-beta", "1.0.0-beta.2"),
        ("1.0.0-beta.11", "1.0.0-rc.1"),
        ("1.0.0-rc.1", "1.0.0"),
        ("1.0.0-0.0", "1.0.0-0.0.0"),
        ("1.0.0-9999", "1.0.0--"),
        ("1.0.0-99", "1.0.0-100"),
        ("1.0.0-0", "1.0.0--1"),
        ("1.0.0-0", "1.0.0-1"),
        ("1.0.0-1.0", "1.0.0-1.-1"),
        ("0.0.0-foo", "0.0.0"),
        ("1.2.3-4", "1.2.3"),
        ("1.2.3-5", "1.2.3-5-foo"),
        ("1.2.3-5-Foo", "1.2.3-5-foo"),
        ("1.2.3-a.5", "1.2.3-a.10"),
        ("1.2.3-a.5", "1.2.3-a.b"),
        ("1.2.3-a", "1.2.3-a.b"),
        ("1.2.3-a.b.c.5.d.100", "1.2.3-a.b.c.10.d.5"),
        ("1.2.3-R2", "1.2.3-r100"),
        ("1.2.3-r100", "1.2.3-r2"),
        ("2.7.2+asdf", "3.0.0"),
    ])
    func precedence(lower: String, higher: String) throws {
        let low = try #require(SemanticVersion(lower))
        let high = try #require(SemanticVersion(higher))
        #expect(low < high)
        #expect(!(high < low))
        #expect(low != high)
    }

    @Test(arguments: [
        ("17", "17.0"),
        ("17", "17.0.0"),
        ("1.2.3", "1.2.3+build"),
        ("1.2.3-beta+build", "1.2.3-beta+otherbuild"),
    ])
    func equalPrecedence(lhs: String, rhs: String) throws {
        let left = try #require(SemanticVersion(lhs))
        let right = try #require(SemanticVersion(rhs))
        #expect(left == right)
        #expect(!(left < right) && !(right < left))
        #expect(Set([left, right]).count == 1)
    }

    @Test func sortsATable() {
        let shuffled = ["18", "17.4.1", "18.0.0-beta.2", "17", "17.10", "18.0.0-beta.11", "16.7.10", "17.4"]
        let sorted = shuffled.compactMap(SemanticVersion.init).sorted().map(\.description)
        #expect(sorted == ["16.7.10", "17", "17.4", "17.4.1", "17.10", "18.0.0-beta.2", "18.0.0-beta.11", "18"])
    }

    @Test func codableAsWrittenString() throws {
        let versions = ["17", "17.4", "18.0.0-beta.2+b1"].compactMap(SemanticVersion.init)
        let data = try JSONEncoder().encode(versions)
        #expect(String(decoding: data, as: UTF8.self) == #"["17","17.4","18.0.0-beta.2+b1"]"#)
        #expect(try JSONDecoder().decode([SemanticVersion].self, from: data) == versions)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([SemanticVersion].self, from: Data(#"["17.x"]"#.utf8))
        }
    }

    @Test func memberwiseInitPrintsThreeComponents() {
        #expect(SemanticVersion(major: 18, preRelease: ["beta", "2"]).description == "18.0.0-beta.2")
        #expect(SemanticVersion(major: 18, preRelease: ["beta", "2"]).isPreRelease)
    }
}
