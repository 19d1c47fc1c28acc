/// The two engines the store runs on (docs/storage.md, "Which engine when").
package enum DatabaseEngine: String, Sendable, CaseIterable {
    /// An embedded SQLite file: the default, nothing else to run.
    case sqlite
    /// A PostgreSQL server (15 or later) reached through libpq.
    case postgres
}

/// Where the database is: a SQLite file path, or a PostgreSQL URL (`postgres://` or `postgresql://`, libpq's URI
/// form with several hosts and `target_session_attrs` as libpq accepts them).
package enum DatabaseLocation: Sendable, Equatable, CustomStringConvertible {
    case file(String)
    case postgres(url: String)

    /// Reads the `PRELUDE_DATABASE` setting: a URL with a PostgreSQL scheme, else a file path.
    package init(_ setting: String) {
        let lowered = setting.lowercased()
        if lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://") {
            self = .postgres(url: setting)
        } else {
            self = .file(setting)
        }
    }

    /// True when `setting` names a PostgreSQL database.
    package static func isPostgres(_ setting: String) -> Bool {
        if case .postgres = DatabaseLocation(setting) { return true }
        return false
    }

    /// The engine behind this location.
    package var engine: DatabaseEngine {
        switch self {
        case .file: .sqlite
        case .postgres: .postgres
        }
    }

    /// What logs and errors may show: the path, or the URL with any password replaced by `***` (the password
    /// of `user:password@`, and a `password=` query parameter).
    package var description: String {
        switch self {
        case .file(let path): path
        case .postgres(let url): Self.redact(url)
        }
    }

    /// The URL without its secrets.
    package static func redact(_ url: String) -> String {
        var characters = Array(url)
        // user:password@ in the authority (between "://" and the first "/" or "?").
        if let scheme = firstIndex(of: Array("://"), in: characters, from: 0) {
            let start = scheme + 3
            let end = characters[start...].firstIndex(where: { $0 == "/" || $0 == "?" }) ?? characters.count
            if let at = characters[start..<end].lastIndex(of: "@"),
                let colon = characters[start..<at].firstIndex(of: ":")
            {
                characters.replaceSubrange((colon + 1)..<at, with: Array("***"))
            }
        }
        // A password given as a query parameter (`?password=…` or `&password=…`).
        var from = 0
        while let found = firstIndex(of: Array("password="), in: characters, from: from) {
            let valueStart = found + 9
            if found > 0, characters[found - 1] == "?" || characters[found - 1] == "&" {
                let valueEnd = characters[valueStart...].firstIndex(of: "&") ?? characters.count
                characters.replaceSubrange(valueStart..<valueEnd, with: Array("***"))
            }
            from = valueStart
        }
        return String(characters)
    }

    private static func firstIndex(of needle: [Character], in haystack: [Character], from start: Int) -> Int? {
        guard needle.count <= haystack.count, start <= haystack.count - needle.count else { return nil }
        return (start...(haystack.count - needle.count)).first {
            haystack[$0..<($0 + needle.count)].elementsEqual(needle)
        }
    }
}
