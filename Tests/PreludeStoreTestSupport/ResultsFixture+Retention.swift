/// Traffic for the pruning tests, and what is left of it.
extension ResultsFixture {
    /// A day in milliseconds.
    package static let day: Int64 = 86_400_000

    /// Old traffic (100 and 40 days before `now`) and recent traffic (10 days before) for the same installs.
    package func seedRetentionTraffic(now: Int64) throws {
        try ingest(
            TestEvent.arm("control", exposed: 120, granted: 50)
                + TestEvent.arm("short-copy", exposed: 110, granted: 60),
            receivedAt: now - 100 * Self.day)
        let later = (0..<60).flatMap { index in
            TestEvent.flow(install: "control-\(index)", variant: "control", ["deniedShown"]).map { event in
                var copy = event
                copy.id = "late-\(index)"
                return copy
            }
        }
        try ingest(later, receivedAt: now - 40 * Self.day)
        try ingest(TestEvent.arm("fresh", exposed: 5, granted: 1), receivedAt: now - 10 * Self.day)
    }

    /// The distinct `received_at` of the stored events, in order.
    package func receivedTimes() throws -> [Int64] {
        try database.read { db in
            try db.query("SELECT DISTINCT received_at FROM events ORDER BY 1").map { try $0.get(0, as: Int64.self) }
        }
    }
}
