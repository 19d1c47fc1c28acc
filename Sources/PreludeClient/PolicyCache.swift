import Foundation
import PreludeCore

/// The last good policy on disk: body, ETag, validation time and lifetimes in one file, replaced atomically.
///
/// The file is keyed by (server, app, schema version), not by app version, so an app upgrade keeps it and a
/// build reading another schema version never reads it. Layout: one JSON header line, `\n`, then the body
/// exactly as the server sent it. The header holds the body's length and FNV-1a 64 checksum; ``load()`` refuses
/// a file whose header does not parse, whose body is shorter or longer, or whose checksum or policy validation
/// fails — and deletes it, so a corrupt file is never trusted and never read twice.
struct PolicyCache {
    /// What is stored about one copy.
    struct Entry: Sendable, Equatable {
        /// The document bytes, as served (canonical form).
        var body: [UInt8]
        /// The server's strong tag for them; nil for a bootstrap copy.
        var etag: String?
        /// When the copy was last validated.
        var validatedAt: Instant
        /// The lifetimes the server gave.
        var lifetimes: CacheLifetimes
    }

    private struct Header: Codable {
        var format: Int
        var etag: String?
        var validatedAt: Double
        var lifetimes: CacheLifetimes
        var length: Int
        var checksum: String
    }

    /// The file's path.
    let path: String

    /// The cache file in `directory` for `server` and `app` at the current schema version.
    init(directory: String, server: URL, app: String) {
        let key = FNV1a64.hex(Array("\(server.absoluteString)\n\(app)".utf8))
        path = (directory as NSString).appendingPathComponent(
            "policy-\(key)-schema\(PolicySchema.currentVersion).cache")
    }

    /// What ``load()`` found.
    enum Loaded {
        /// No file.
        case missing
        /// A file that could not be trusted; it was deleted.
        case discarded
        /// A good copy and its validated document.
        case loaded(Entry, PolicyDocument)
    }

    /// The stored copy with its validated document; an untrusted file is deleted.
    func load() -> Loaded {
        guard let bytes = AtomicFile.read(path) else { return .missing }
        guard let newline = bytes.firstIndex(of: UInt8(ascii: "\n")),
            let header = try? JSONDecoder().decode(Header.self, from: Data(bytes[..<newline])),
            header.format == 1
        else { return discard() }
        let body = Array(bytes[(newline + 1)...])
        guard body.count == header.length, FNV1a64.hex(body) == header.checksum else { return discard() }
        let validation = PolicyValidator.validate(bytes: body, unknownMembers: .skippedInExperiments)
        guard validation.isValid, let document = validation.document else { return discard() }
        let entry = Entry(
            body: body, etag: header.etag, validatedAt: Instant(secondsSinceEpoch: header.validatedAt),
            lifetimes: header.lifetimes)
        return .loaded(entry, document)
    }

    /// Replaces the stored copy with `entry` in one atomic write.
    func store(_ entry: Entry) throws {
        let header = Header(
            format: 1, etag: entry.etag, validatedAt: entry.validatedAt.secondsSinceEpoch, lifetimes: entry.lifetimes,
            length: entry.body.count, checksum: FNV1a64.hex(entry.body))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        var bytes = [UInt8](try encoder.encode(header))
        bytes.append(UInt8(ascii: "\n"))
        bytes += entry.body
        try AtomicFile.write(bytes, to: path)
    }

    /// Deletes the file; the result of ``load()`` for an untrusted file.
    private func discard() -> Loaded {
        AtomicFile.remove(path)
        return .discarded
    }
}
