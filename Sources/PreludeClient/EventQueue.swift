import Foundation

/// The durable queue of events not yet acknowledged by the server: an append-only file, one checksummed line
/// per event, fsynced before ``append(_:)`` returns.
///
/// - A line is `<FNV-1a 64 of the JSON, 16 hex digits> <JSON>\n`. At open, a torn last line (the process died
///   inside a write) and any line whose checksum fails are dropped, and the file is rewritten without them before
///   anything is appended after them.
/// - Acknowledged events leave by ``removeFirst(_:)``, which rewrites the rest atomically (temp file + rename):
///   a crash between the server's 202 and that rewrite resends the batch, and the server's de-duplication on
///   event ids keeps every event exactly once.
/// - At most `capacity` events are kept; beyond that new events are not stored and counted in ``dropped``
///   (persisted beside the queue), never growing without bound.
struct EventQueue {
    private let path: String
    private let droppedPath: String
    /// The most events kept.
    let capacity: Int
    /// The queued events, oldest first (mirrors the file).
    private(set) var events: [QueuedEvent] = []
    /// Events refused because the queue was full or the server rejected their batch, since the last reset.
    private(set) var dropped: Int = 0
    /// Lines discarded at open because they were torn or corrupt.
    private(set) var discardedLines: Int = 0

    /// Opens (or creates) the queue in `directory`, repairing a torn or corrupt file.
    init(directory: String, capacity: Int) throws {
        precondition(capacity > 0, "the event queue needs room for at least one event")
        path = (directory as NSString).appendingPathComponent("events.queue")
        droppedPath = (directory as NSString).appendingPathComponent("events.dropped")
        self.capacity = capacity
        if let bytes = AtomicFile.read(droppedPath), let count = Int(String(decoding: bytes, as: UTF8.self)) {
            dropped = count
        }
        guard let bytes = AtomicFile.read(path) else { return }
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        // The piece after the last newline is empty for a whole file, a torn line otherwise.
        if let last = lines.popLast(), !last.isEmpty { discardedLines += 1 }
        let decoder = JSONDecoder()
        for line in lines {
            guard line.count > 17, line[line.startIndex + 16] == UInt8(ascii: " "),
                FNV1a64.hex(line.dropFirst(17)) == String(decoding: line.prefix(16), as: UTF8.self),
                let event = try? decoder.decode(QueuedEvent.self, from: Data(line.dropFirst(17)))
            else {
                discardedLines += 1
                continue
            }
            events.append(event)
        }
        if discardedLines > 0 { try rewrite() }
    }

    /// Appends `event` durably; returns false (and counts it as dropped) when the queue is full.
    mutating func append(_ event: QueuedEvent) throws -> Bool {
        guard events.count < capacity else {
            try countDropped(1)
            return false
        }
        try AtomicFile.append(Self.line(event), to: path)
        events.append(event)
        return true
    }

    /// Removes the `count` oldest events (acknowledged, or rejected for good).
    mutating func removeFirst(_ count: Int) throws {
        events.removeFirst(min(count, events.count))
        try rewrite()
    }

    /// Removes the events with these ids (refused by the server one by one), wherever they are.
    mutating func remove(ids: Set<String>) throws {
        events.removeAll { ids.contains($0.id) }
        try rewrite()
    }

    /// Adds `count` to the persisted dropped counter.
    mutating func countDropped(_ count: Int) throws {
        dropped += count
        try AtomicFile.write(Array(String(dropped).utf8), to: droppedPath)
    }

    private func rewrite() throws {
        if events.isEmpty {
            AtomicFile.remove(path)
        } else {
            try AtomicFile.write(events.flatMap(Self.line), to: path)
        }
    }

    private static func line(_ event: QueuedEvent) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = (try? encoder.encode(event)).map { [UInt8]($0) } ?? []
        return Array(FNV1a64.hex(json).utf8) + [UInt8(ascii: " ")] + json + [UInt8(ascii: "\n")]
    }
}
