import PreludeTestSupport
import Testing

@testable import PreludeStorage

/// The array literal that carries a batch of events as one parameter: every element quoted, only `"` and `\`
/// escaped, nil as `NULL`.
@Suite struct PostgresArrayLiteralTests {
    /// Values that a careless literal would split, merge or turn into NULL.
    static let awkward: [String?] = [
        "plain", "", "with,comma", "{braces}", "NULL", "null", "say \"hi\"", #"back\slash"#, #"\""#, " padded ",
        "multi\nline", "é日本🙂", nil, "tab\there",
    ]

    @Test func quotesEveryElementAndEscapesOnlyQuotesAndBackslashes() {
        #expect(PostgresArrayLiteral.text(["a", nil, "b\"c", #"d\e"#, ""]) == #"{"a",NULL,"b\"c","d\\e",""}"#)
        #expect(PostgresArrayLiteral.text([String]()) == "{}")
        #expect(PostgresArrayLiteral.integers([1, nil, -3]) == "{1,NULL,-3}")
        #expect(PostgresArrayLiteral.integers([Int64]()) == "{}")
    }

    /// PostgreSQL itself reads the literal back element for element, in order.
    @Test(.enabled(if: TestDatabase.isPostgres, "needs the throwaway PostgreSQL cluster"))
    func postgresReadsEveryElementBackInOrder() throws {
        let database = try Database(location: DatabaseLocation(TestDatabase.location(file: "unused")), readerCount: 1)
        defer { database.close() }
        let rows = try database.read { db in
            try db.query(
                "SELECT t, i FROM unnest(?::text[], ?::bigint[]) WITH ORDINALITY AS u(t, i, n) ORDER BY n",
                [
                    .text(PostgresArrayLiteral.text(Self.awkward)),
                    .text(
                        PostgresArrayLiteral.integers(
                            Self.awkward.indices.map { $0 % 5 == 4 ? nil : Int64($0) * 1_000_000_007 })),
                ])
        }
        #expect(rows.count == Self.awkward.count)
        for (index, row) in rows.enumerated() {
            #expect(try row.get(0, as: String?.self) == Self.awkward[index], "element \(index)")
            #expect(try row.get(1, as: Int64?.self) == (index % 5 == 4 ? nil : Int64(index) * 1_000_000_007))
        }
    }
}
