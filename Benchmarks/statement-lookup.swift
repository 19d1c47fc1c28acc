// A model of how PostgresConnection found a statement's prepared name per run before issue 36's follow-up (a key
// string of the parameter types and the SQL, two dictionary lookups) and after (PostgresStatement: the arguments'
// types compared with the statement's short list). Not built by any package; BENCHMARKS.md, "Issue 36", runs it:
//   swiftc -O Benchmarks/statement-lookup.swift -o /tmp/statement-lookup && /tmp/statement-lookup
import Foundation

enum V { case null, integer(Int64), real(Double), text(String), blob([UInt8]) }
@inline(never) func type(_ v: V) -> UInt32 {
    switch v { case .null: 0; case .integer: 20; case .real: 701; case .text: 25; case .blob: 17 }
}
struct Translation { let text: String; let parameterCount: Int }

final class Old {
    var prepared: [String: String] = [:]
    var parsed: [String: Translation] = [:]
    @inline(never) func name(_ sql: String, _ arguments: [V]) -> String {
        let translated: Translation
        if let cached = parsed[sql] { translated = cached } else {
            translated = Translation(text: sql, parameterCount: arguments.count); parsed[sql] = translated
        }
        precondition(arguments.count == translated.parameterCount)
        let types = arguments.map(type)
        let key = types.map(String.init).joined(separator: ",") + "|" + sql
        if let found = prepared[key] { return found }
        let name = "p\(prepared.count + 1)"; prepared[key] = name; return name
    }
}
final class New {
    var prepared: [(types: [UInt32], name: String)] = []
    var session = 1
    @inline(never) func name(_ arguments: [V], session current: Int) -> String {
        if session == current {
            for candidate in prepared where candidate.types.count == arguments.count {
                var matches = true
                for (t, a) in zip(candidate.types, arguments) where t != type(a) { matches = false; break }
                if matches { return candidate.name }
            }
        }
        let name = "p\(prepared.count + 1)"; prepared.append((arguments.map(type), name)); return name
    }
}
// The event insert (13 parameters, EventIngestor) and a short admin read (2 parameters).
let insert = """
    INSERT INTO events (app_id, install_id, client_event_id, type, feature, experiment, variant, occurred_at, received_at, environment, task, os_major, locale)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT DO NOTHING RETURNING id
    """
let insertArgs: [V] = [.text("demo"), .text("install-1"), .text("e-1"), .text("primeShown"), .text("camera"), .null, .null,
    .integer(1), .integer(2), .text("production"), .null, .integer(17), .text("en")]
let read = "SELECT id, name, scope, created_at, revoked_at FROM tokens WHERE name = ? AND revoked_at IS NULL AND 1 = ?"
let readArgs: [V] = [.text("ci"), .integer(1)]
let n = 1_000_000
func time(_ label: String, _ body: () -> Int) {
    var samples: [Double] = []
    for _ in 0..<7 {
        let start = DispatchTime.now().uptimeNanoseconds
        let sink = body()
        let ns = Double(DispatchTime.now().uptimeNanoseconds - start) / Double(n)
        samples.append(ns); if sink == -1 { print(sink) }
    }
    samples.sort()
    print(label, String(format: "median %.1f ns/run (min %.1f, max %.1f)", samples[3], samples[0], samples[6]))
}
for (label, sql, args) in [("insert13", insert, insertArgs), ("read2", read, readArgs)] {
    let old = Old(); let new = New()
    time("old \(label)") { var c = 0; for _ in 0..<n { c &+= old.name(sql, args).utf8.count }; return c }
    time("new \(label)") { var c = 0; for _ in 0..<n { c &+= new.name(args, session: 1).utf8.count }; return c }
}
