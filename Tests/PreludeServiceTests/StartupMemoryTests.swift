import Foundation
import PreludeHTTP
import Testing

@testable import PreludeService

@Suite struct StartupMemoryTests {
    /// One smaps entry: the header line and the fields the release reads.
    private static func entry(
        _ range: String, _ permissions: String, _ path: String, rss: Int, anonymous: Int,
        flags: String = "rd ex mr mw me"
    ) -> String {
        """
        \(range) \(permissions) 00000000 fe:01 1234 \(path)
        Size:                132 kB
        Rss:                 \(rss) kB
        Pss:                 \(rss) kB
        Anonymous:           \(anonymous) kB
        VmFlags: \(flags)
        """
    }

    @Test func unmapsOnlyCleanPrivateReadOnlyFileMappings() {
        let smaps = [
            Self.entry("1000-3000", "r-xp", "/usr/lib/libc.so.6", rss: 8, anonymous: 0),  // clean code: unmapped
            Self.entry("3000-4000", "r--p", "/srv/prelude", rss: 4, anonymous: 0),  // clean constants: unmapped
            Self.entry("4000-5000", "r--p", "/usr/lib/libc.so.6", rss: 4, anonymous: 4),  // relocated (RELRO)
            Self.entry("5000-6000", "rw-p", "/usr/lib/libc.so.6", rss: 4, anonymous: 0),  // writable data
            Self.entry("6000-7000", "r--s", "/data/prelude.sqlite-shm", rss: 4, anonymous: 0),  // shared
            Self.entry("7000-8000", "rw-p", "[heap]", rss: 4, anonymous: 4),
            Self.entry("8000-9000", "r--p", "", rss: 4, anonymous: 0),  // anonymous, no file
            Self.entry("9000-a000", "r-xp", "/usr/lib/libz.so.1", rss: 0, anonymous: 0),  // nothing resident
            Self.entry("a000-b000", "r-xp", "/usr/lib/libm.so.6", rss: 4, anonymous: 0, flags: "rd ex lo"),  // locked
            Self.entry("b000-c000", "r-xp", "/old/prelude (deleted)", rss: 4, anonymous: 0),  // replaced on disk
        ].joined(separator: "\n")
        #expect(
            StartupMemory.cleanReadOnlyFileMappings(smaps: smaps) == [
                .init(start: 0x1000, end: 0x3000, residentKiB: 8), .init(start: 0x3000, end: 0x4000, residentKiB: 4),
                .init(start: 0xb000, end: 0xc000, residentKiB: 4),
            ])
        #expect(StartupMemory.cleanReadOnlyFileMappings(smaps: "") == [])
    }

    /// The release runs in this test process (what `prelude serve` does in its own): afterwards the server still
    /// answers from its caches, reads and writes the database, and serves what it wrote.
    @Test func theServerServesReadsAndWritesAfterTheRelease() throws {
        let server = try AdminServer()
        let service = server.service
        let client = PublicClient(port: service.port)
        let target = "/v1/apps/demo/policy?platform=ios&os=17.4&appVersion=2.3.0&locale=en&installId=install-1"
        let before = try client.get(target)
        #expect(before.status == 200)

        let released = service.releaseStartupMemory()
        #if os(Linux)
            #expect(released.mappings > 0)  // at least this binary's code and the C library's
        #endif

        let identity = try client.get(target)
        #expect(identity.status == 200)
        #expect(identity.body == before.body)
        let gzip = try client.get(target, headers: [("Accept-Encoding", "gzip")])
        #expect(gzip["Content-Encoding"] == "gzip")
        #expect(try Gzip.decompress(gzip.body, maxSize: 1 << 24) == identity.body)

        // A write through the admin API and through event ingestion, then reads that see both.
        let etag = try server.etag()
        let patched = try server.send(
            "PATCH", "/v1/admin/apps/demo/features/camera", headers: [("If-Match", etag)],
            body: #"{"cadence": {"prime": {"maxShows": 4}}}"#)
        #expect(patched.status == 200)
        #expect(try server.etag() != etag)
        let after = try client.get(target)
        #expect(after.status == 200)
        #expect(after["ETag"] != identity["ETag"])
        let events = try client.post(
            "/v1/apps/demo/events",
            json: EventsTests.batch([EventsTests.event("e1", feature: "camera"), EventsTests.event("e2")]))
        #expect(events.status == 202)
        #expect(try events.json()["accepted"] as? Int == 2)
        let stored = try service.database.read { try $0.scalar("SELECT count(*) FROM events", as: Int64.self) }
        #expect(stored == 2)
        #expect(try TestTransport.live(port: service.port).get("/readyz").status == 200)
    }
}
