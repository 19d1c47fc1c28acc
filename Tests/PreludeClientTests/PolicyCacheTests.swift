import Foundation
import PreludeClient
import PreludeCore
import Testing

/// The on-disk policy cache is trusted only when its checksum and the full validation pass.
@Suite struct PolicyCacheTests {
    let fixture = ClientFixture()

    /// The cache file the client wrote after a fetch, and the (now closed) port of the server it came from: the
    /// cache is keyed by server, so later clients must name the same one.
    private func fetchedCacheFile() async throws -> (String, Int) {
        let service = try fixture.startService()
        defer { service.stop() }
        let client = try fixture.makeClient(port: service.port)
        #expect(await client.refresh() == .updated(revision: 1))
        let files = try FileManager.default.contentsOfDirectory(atPath: fixture.path("client"))
        let name = try #require(files.first { $0.hasPrefix("policy-") && $0.hasSuffix("-schema1.cache") })
        #expect(!files.contains { $0.hasSuffix(".tmp") })
        return (fixture.path("client/" + name), service.port)
    }

    @Test(arguments: ["truncated", "flipped", "header", "empty", "invalidPolicy"])
    func aDamagedCacheFileIsDiscardedNotTrusted(_ damage: String) async throws {
        let (path, port) = try await fetchedCacheFile()
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let newline = try #require(bytes.firstIndex(of: UInt8(ascii: "\n")))
        switch damage {
        case "truncated": bytes.removeLast(bytes.count / 3)
        case "flipped":
            // One letter of a text changed: the document still validates, only the checksum catches it.
            let text = String(decoding: bytes[(newline + 1)...], as: UTF8.self)
            let changed = text.replacingOccurrences(of: "Open Settings", with: "Open Settingz")
            #expect(changed != text)
            bytes = Array(bytes[...newline]) + Array(changed.utf8)
        case "header": bytes[3] = UInt8(ascii: "!")
        case "empty": bytes = []
        default:
            // A body whose checksum matches but which does not validate: a checksum alone is not trusted.
            let body = Array(
                #"{"schemaVersion": 1, "app": {"id": "demo"}, "features": {"camera": {"cadence": {"prime": {"maxShows": 99}}}}}"#
                    .utf8)
            var header = String(decoding: bytes[..<newline], as: UTF8.self)
            header = header.replacing(/"checksum":"[0-9a-f]+"/, with: "\"checksum\":\"\(Self.fnv(body))\"")
            header = header.replacing(/"length":\d+/, with: "\"length\":\(body.count)")
            bytes = Array(header.utf8) + [UInt8(ascii: "\n")] + body
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))

        let client = try fixture.makeClient(port: port)
        #expect(await client.diagnostics().source == .bootstrap)
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(try await client.decide(feature: .camera, status: .notDetermined).action == .prime)
    }

    @Test func anIntactCacheFileIsUsed() async throws {
        let (_, port) = try await fetchedCacheFile()
        let client = try fixture.makeClient(port: port, bootstrap: false)
        #expect(await client.diagnostics().source == .cache)
        #expect(try await client.decide(feature: .camera, status: .notDetermined).action == .prime)
    }

    @Test func anInvalidBootstrapIsRefusedAtStart() throws {
        #expect(throws: PreludeClientError.self) {
            try PreludeClient(
                configuration: PreludeClientConfiguration(
                    server: URL(string: "http://127.0.0.1:1")!, app: "demo",
                    storageDirectory: URL(fileURLWithPath: fixture.path("bad")),
                    bootstrapPolicy: Data(#"{"schemaVersion": 1}"#.utf8)))
        }
    }

    private static func fnv(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        let text = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - text.count) + text
    }
}
