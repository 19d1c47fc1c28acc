import Foundation
import PreludeCore
import Synchronization
import Testing

@testable import PreludeService

@Suite struct LoggerTests {
    final class Lines: Sendable {
        let value = Mutex<[String]>([])
    }

    @Test func writesJSONLinesAtOrAboveItsLevel() throws {
        let lines = Lines()
        let logger = Logger(level: .warning) { line in lines.value.withLock { $0.append(line) } }
        logger.info("dropped")
        logger.warning("kept \"quoted\"\n", ["path": "a\\b"])
        let captured = lines.value.withLock { $0 }
        #expect(captured.count == 1)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(captured[0].utf8)) as? [String: String])
        #expect(object["level"] == "warning")
        #expect(object["msg"] == "kept \"quoted\"\n")
        #expect(object["path"] == "a\\b")
        #expect(object["time"] != nil)
    }

    @Test func escapesControlCharacters() {
        #expect(JSONValue.quoted("a\u{01}b") == "\"a\\u0001b\"")
    }
}
