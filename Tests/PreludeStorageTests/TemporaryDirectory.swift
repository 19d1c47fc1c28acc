import Foundation

/// A fresh directory under the system temporary directory, removed on deinit.
final class TemporaryDirectory {
    let path: String

    init() {
        let base = FileManager.default.temporaryDirectory.path
        path = (base as NSString).appendingPathComponent("prelude-tests-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    func write(_ name: String, _ text: String) {
        _ = FileManager.default.createFile(atPath: file(name), contents: Data(text.utf8))
    }
}
