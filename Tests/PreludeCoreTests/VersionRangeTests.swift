import Foundation
import PreludeCore
import Testing

@Suite struct VersionRangeTests {
    /// (range, version, contained)
    @Test(arguments: [
        (">=17", "17", true),
        (">=17", "17.0.1", true),
        (">=17", "16.7.10", false),
        (">=17", "18.0.0-beta.2", true),
        (">=18", "18.0.0-beta.2", false),
        (">17.2", "17.2", false),
        (">17.2", "17.2.1", true),
        ("<18", "17.9.9", true),
        ("<18", "18", false),
        ("<18", "18.0.0-beta.2", true),
        ("<=17.4.1", "17.4.1", true),
        ("<=17.4.1", "17.4.2", false),
        ("=17.4", "17.4.0", true),
        ("=17.4", "17.4.1", false),
        ("17.4", "17.4", true),
        ("17.4", "17.5", false),
        (">=17.2 <18", "17.1", false),
        (">=17.2 <18", "17.2", true),
        (">=17.2 <18", "17.6.1", true),
        (">=17.2 <18", "18.0", false),
        ("<14 || >=17", "13.7", true),
        ("<14 || >=17", "15.4", false),
        ("<14 || >=17", "17.0", true),
        ("*", "0.0.1", true),
        ("*", "99.0.0-alpha", true),
        (">= 15 < 16", "15.8", true),
        (">= 15 < 16", "16", false),
        ("  >=15\t<16  ", "15.1", true),
        (">=15||<2", "1.9", true),
        ("=1.2.3+build", "1.2.3", true),
    ])
    func containment(range: String, version: String, expected: Bool) throws {
        let parsed = try #require(VersionRange(range))
        let candidate = try #require(SemanticVersion(version))
        #expect(parsed.contains(candidate) == expected)
    }

    @Test(arguments: [
        "", " ", "||", ">=17 ||", "|| <18", ">=", ">= ", "=>17", ">==17", "<>17", "~17", "^17", "17.x", "v17",
        ">=17 && <18", ">=17,<18", "17 - 18", ">=17 | <10", "* *x",
    ])
    func rejectsMalformed(range: String) {
        #expect(VersionRange(range) == nil)
    }

    @Test(arguments: [
        (">=17", ">=17"),
        (">= 17.2   <18", ">=17.2 <18"),
        ("17.4", "=17.4"),
        ("<14||>=17", "<14 || >=17"),
        ("*", "*"),
    ])
    func canonicalDescription(range: String, canonical: String) throws {
        #expect(try #require(VersionRange(range)).description == canonical)
    }

    @Test func codableAsString() throws {
        let ranges = [VersionRange(">=17.2 <18")!, VersionRange.any]
        let data = try JSONEncoder().encode(ranges)
        #expect(String(decoding: data, as: UTF8.self) == #"[">=17.2 <18","*"]"#)
        #expect(try JSONDecoder().decode([VersionRange].self, from: data) == ranges)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([VersionRange].self, from: Data(#"["~17"]"#.utf8))
        }
    }
}
