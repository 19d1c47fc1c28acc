import Foundation
import Testing

/// The fuzz package (Fuzz/Package.swift) compiles the root package's library folders through symbolic links, so it
/// must name every module those folders import. When PreludeStorage gained `import CPostgres` and the fuzz package
/// did not, only the fuzz step of `.ci/run` found out, forty minutes in; this test finds it in the test run.
@Suite struct FuzzPackageTests {
    static let fuzz = ServiceFixture.repositoryRoot + "/Fuzz"

    /// The linked library folders under Fuzz/Sources (the fuzz executable's own folder is a real directory).
    static func linkedFolders() throws -> [String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: fuzz + "/Sources")
        return names.filter { name in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: fuzz + "/Sources/" + name)) != nil
        }.sorted()
    }

    /// The project's own modules (Prelude… and C…) a folder's Swift files import.
    static func projectImports(in folder: String) throws -> Set<String> {
        // The root package's folder itself: FileManager's enumerator does not descend into a symbolic link.
        let path = ServiceFixture.repositoryRoot + "/Sources/" + folder
        guard let files = FileManager.default.enumerator(atPath: path) else { return [] }
        var modules: Set<String> = []
        for case let file as String in files where file.hasSuffix(".swift") {
            let text = try String(contentsOfFile: path + "/" + file, encoding: .utf8)
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ")
                guard words.count >= 2, words[0] == "import" || (words[0] == "@testable" && words[1] == "import")
                else { continue }
                let module = String(words[words[0] == "import" ? 1 : 2])
                if module.hasPrefix("Prelude") || module.first == "C" && module.dropFirst().first?.isUppercase == true {
                    modules.insert(module)
                }
            }
        }
        return modules
    }

    @Test func everyModuleALinkedFolderImportsIsLinkedAndNamed() throws {
        let folders = try Self.linkedFolders()
        #expect(folders.contains("PreludeStorage"))
        #expect(try Self.projectImports(in: "PreludeStorage").contains("CSQLite"))
        let manifest = try String(contentsOfFile: Self.fuzz + "/Package.swift", encoding: .utf8)
        for folder in folders {
            for module in try Self.projectImports(in: folder) {
                #expect(folders.contains(module), "Fuzz/Sources lacks a link to \(module), which \(folder) imports")
                #expect(manifest.contains("name: \"\(module)\""), "Fuzz/Package.swift does not name \(module)")
            }
        }
    }

    @Test func everyLinkPointsAtTheRootPackagesFolder() throws {
        for folder in try Self.linkedFolders() {
            let target = try FileManager.default.destinationOfSymbolicLink(atPath: Self.fuzz + "/Sources/" + folder)
            #expect(target == "../../Sources/" + folder)
            var isDirectory: ObjCBool = false
            #expect(FileManager.default.fileExists(atPath: Self.fuzz + "/Sources/" + folder, isDirectory: &isDirectory))
            #expect(isDirectory.boolValue, "\(folder) links to nothing")
        }
    }
}
