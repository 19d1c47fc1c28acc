import ArgumentParser
import PreludeCore

#if canImport(FoundationEssentials)
    import Dispatch
    import FoundationEssentials
    import Glibc
#else
    import Foundation
#endif

/// `prelude policy …`: tools for policy documents (offline) and for an app's policy in the database.
struct PolicyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "policy",
        abstract: "Check policy documents; import and export an app's policy.",
        subcommands: [
            PolicyValidateCommand.self, PolicyLintCommand.self, PolicyPreviewCommand.self, PolicyImportCommand.self,
            PolicyExportCommand.self,
        ]
    )
}

/// `prelude policy validate FILE [--json]`: every validation problem, exit 0 when clean and 1 otherwise.
struct PolicyValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Validate a policy document and list every problem.",
        discussion: """
            Prints one line per problem, `pointer: code: message`, or with --json an object \
            {"valid": Bool, "errors": [{"pointer", "code", "detail"}]}. \
            Exit status: 0 when the document is valid, 1 when it has problems, 2 when the file cannot be read.
            """
    )

    @Argument(help: "The policy document (JSON). Use - for standard input.")
    var file: String

    @Flag(name: .long, help: "Print the result as JSON.")
    var json = false

    func run() throws {
        let bytes: [UInt8]
        do {
            bytes = try PolicyFile.read(file)
        } catch {
            StandardIO.error("prelude: \(error)\n")
            throw ExitCode(2)
        }
        let validation = PolicyValidator.validate(bytes: bytes)
        if json {
            print(validation.jsonValue.serialized(.pretty), terminator: "")
        } else if validation.isValid {
            print("\(file): valid")
        } else {
            for problem in validation.problems { print(problem.description) }
            let count = validation.problems.count
            print("\(file): \(count) problem\(count == 1 ? "" : "s")")
        }
        if !validation.isValid { throw ExitCode(1) }
    }
}

/// Reads a policy file, or standard input for "-".
enum PolicyFile {
    /// The file's bytes.
    static func read(_ path: String) throws -> [UInt8] {
        if path == "-" { return try StandardIO.readInput() }
        return try StandardIO.readFile(path)
    }
}
