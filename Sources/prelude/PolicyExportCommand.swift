import ArgumentParser
import PreludeCore
import PreludeService
import PreludeStorage
import PreludeStore

#if canImport(FoundationEssentials)
    import Dispatch
    import FoundationEssentials
    import Glibc
#else
    import Foundation
#endif

/// `prelude policy export --app APP [--revision N] [--output FILE] [--pretty]`: an app's live (or given) revision
/// from the database `serve` uses, in canonical form, ready for `prelude policy import`.
struct PolicyExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Print an app's live (or given) policy revision as canonical JSON.",
        discussion: """
            The document is written in canonical form (members in the documented order, features in catalogue \
            order: what GET /v1/admin/apps/{app}/policy answers), compact with a final newline, or indented with \
            --pretty. A stored revision that no longer validates with this build is written as stored, with a \
            warning. Uses the same database settings as `serve`. \
            Exit status: 0 written, 1 unknown app or revision (or an unwritable --output), 78 bad settings.
            """
    )

    @Option(help: "The app whose policy to export.")
    var app: String

    @Option(help: "A revision number. [default: the live revision]")
    var revision: Int?

    @Option(help: ArgumentHelp("Write to this file instead of standard output.", valueName: "path"))
    var output: String?

    @Flag(help: "Indent the JSON.")
    var pretty = false

    @OptionGroup var options: DatabaseOptions

    func validate() throws {
        if let revision, revision < 1 { throw ValidationError("--revision must be 1 or more") }
    }

    func run() throws {
        let (configuration, store) = try options.openMigratedStore()
        defer { store.database.close() }

        let stored: (number: Int, text: String)
        do {
            stored = try read(store.policies, path: configuration.database)
        } catch let error as ExitCode {
            throw error
        } catch {
            throw Failure.exit(error, code: 1)
        }
        var bytes: [UInt8]
        let validation = PolicyValidator.validate(text: stored.text)
        if let document = validation.document {
            bytes = document.jsonValue.serializedBytes(pretty ? .pretty : .compact)
            if !pretty { bytes.append(0x0A) }
        } else {
            // Still exported, so that it can be repaired and imported again; the warning says why import refuses it.
            bytes = Array(stored.text.utf8)
            if bytes.last != 0x0A { bytes.append(0x0A) }
            PolicyImportCommand.printError(
                "prelude: warning: revision \(stored.number) of app \"\(app)\" does not validate with this build "
                    + "(\(CountedNoun.text(validation.problems.count, "problem")); `prelude policy validate` lists them); written as stored"
            )
        }
        if let output {
            do {
                try StandardIO.writeFile(output, bytes)
            } catch {
                throw PolicyImportCommand.refuse("\(error)")
            }
            PolicyImportCommand.printError("Exported revision \(stored.number) of app \"\(app)\" to \(output).")
        } else {
            StandardIO.output(bytes)
        }
    }

    /// The revision asked for (or the live one) and its stored text; exit 1 naming what is missing.
    private func read(_ policies: PolicyRepository, path: String) throws -> (number: Int, text: String) {
        switch try policies.export(
            app: app, environment: EnvironmentName.production, revision: revision)
        {
        case .noApp: throw PolicyImportCommand.refuse("no app \"\(app)\" in \(path)")
        case .noLiveRevision: throw PolicyImportCommand.refuse("app \"\(app)\" has no live revision; pass --revision")
        case .noRevision(let number, let highest):
            let range = highest.map { " (revisions 1–\($0))" } ?? ""
            throw PolicyImportCommand.refuse("app \"\(app)\" has no revision \(number)\(range)")
        case .found(let number, let document): return (number, document)
        }
    }
}
