#if canImport(FoundationEssentials)
    import Dispatch
    import FoundationEssentials
    import Glibc
#else
    import Foundation
#endif

/// Loads the migrations of a directory: every `NNNN_name.sql`, ordered by number.
package enum MigrationCatalog {
    /// Reads and orders the `.sql` files in `directory`; other files are ignored.
    package static func load(directory: String) throws -> [Migration] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            let reason =
                FileManager.default.fileExists(atPath: directory) ? "not a readable directory" : "no such directory"
            throw MigrationError.directoryUnreadable(path: directory, reason: reason)
        }
        var migrations: [Migration] = []
        for file in names.sorted() where file.hasSuffix(".sql") {
            let name = String(file.dropLast(4))
            let digits = name.prefix { $0.isASCII && $0.isNumber }
            guard digits.count == 4, let number = Int(digits), name.count > 5,
                name[name.index(name.startIndex, offsetBy: 4)] == "_"
            else { throw MigrationError.badFileName(file) }
            let path = directory.hasSuffix("/") ? directory + file : directory + "/" + file
            guard let data = FileManager.default.contents(atPath: path) else {
                throw MigrationError.directoryUnreadable(path: path, reason: "file cannot be read")
            }
            migrations.append(Migration(number: number, name: name, sql: String(decoding: data, as: UTF8.self)))
        }
        try check(migrations)
        return migrations.sorted { $0.number < $1.number }
    }

    /// Rejects duplicate numbers.
    package static func check(_ migrations: [Migration]) throws {
        let byNumber = Dictionary(grouping: migrations, by: \.number)
        if let (number, group) = byNumber.first(where: { $0.value.count > 1 }) {
            throw MigrationError.duplicateNumber(number, group.map(\.name).sorted())
        }
    }
}
