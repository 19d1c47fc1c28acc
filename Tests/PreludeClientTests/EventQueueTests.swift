import Foundation
import PreludeCore
import Testing

@testable import PreludeClient

/// The durable queue: torn and corrupt lines are dropped at open, the cap counts what it refuses.
@Suite struct EventQueueTests {
    let fixture = ClientFixture()

    private func event(_ n: Int) -> QueuedEvent {
        QueuedEvent(id: "e-\(n)", installId: "i", type: .primeShown, feature: .camera, occurredAt: 1_800_000_000_000)
    }

    @Test func aTornLastLineIsDroppedAndTheFileRepairedBeforeAppending() throws {
        var queue = try EventQueue(directory: fixture.directory, capacity: 100)
        for n in 1...3 { _ = try queue.append(event(n)) }
        let path = fixture.path("events.queue")
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        bytes.removeLast(7)  // the process died inside the third line's write
        try Data(bytes).write(to: URL(fileURLWithPath: path))

        var reopened = try EventQueue(directory: fixture.directory, capacity: 100)
        #expect(reopened.events.map(\.id) == ["e-1", "e-2"])
        #expect(reopened.discardedLines == 1)
        _ = try reopened.append(event(4))
        let again = try EventQueue(directory: fixture.directory, capacity: 100)
        #expect(again.events.map(\.id) == ["e-1", "e-2", "e-4"])
        #expect(again.discardedLines == 0)
    }

    @Test func aCorruptLineFailsItsChecksumAndIsDropped() throws {
        var queue = try EventQueue(directory: fixture.directory, capacity: 100)
        for n in 1...3 { _ = try queue.append(event(n)) }
        let path = fixture.path("events.queue")
        var text = try String(contentsOfFile: path, encoding: .utf8)
        text = text.replacingOccurrences(of: "e-2", with: "e-9")
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        let reopened = try EventQueue(directory: fixture.directory, capacity: 100)
        #expect(reopened.events.map(\.id) == ["e-1", "e-3"])
    }

    @Test func aFullQueueCountsDroppedEventsPersistently() throws {
        var queue = try EventQueue(directory: fixture.directory, capacity: 2)
        #expect(try queue.append(event(1)))
        #expect(try queue.append(event(2)))
        #expect(try !queue.append(event(3)))
        #expect(try !queue.append(event(4)))
        let reopened = try EventQueue(directory: fixture.directory, capacity: 2)
        #expect(reopened.events.count == 2)
        #expect(reopened.dropped == 2)
        var drained = reopened
        try drained.removeFirst(2)
        #expect(try drained.append(event(5)))
        #expect(try EventQueue(directory: fixture.directory, capacity: 2).events.map(\.id) == ["e-5"])
    }
}
