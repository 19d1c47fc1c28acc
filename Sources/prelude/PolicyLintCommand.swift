import ArgumentParser
import PreludeCore
import PreludeService
import PreludeStore

#if canImport(FoundationEssentials)
    import Dispatch
    import FoundationEssentials
    import Glibc
#else
    import Foundation
#endif

/// `prelude policy lint FILE [--json] [--strict] [--info-plist-strings FILE.json] [--locale TAG]`, or
/// `prelude policy lint --app APP [--revision N] …` for a revision stored in the database.
struct PolicyLintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Check a policy's copy (and optionally Info.plist purpose strings) against Apple's rules.",
        discussion: """
            Rules and ids are those of docs/lint.md (PA-*, PS-*, DN-*, TR-*). Prints one line per finding, \
            `severity rule pointer: message`, or with --json an object {"clean": Bool, "errors": n, "warnings": n, \
            "infos": n, "findings": [{"ruleId", "severity", "pointer", "message"}]}. \
            --info-plist-strings takes a JSON object of purpose strings, either {"NSCameraUsageDescription": "…"} \
            for one locale (--locale, default the policy's default locale) or {"en": {…}, "fr": {…}} for several. \
            With --app instead of a file, lints what the database stores for the app: its live revision, or \
            --revision N. A revision written by an earlier build is linted as this build serves it (fallback texts \
            where a newer rule requires one), and each rule it no longer meets is a STORED warning: the findings \
            the policy preview and the admin API show for it. No server needed; the database is migrated as `serve` \
            would (as `prelude policy export` does) and refused when missing. \
            Exit status: 0 without errors (warnings and infos allowed unless --strict), 1 with errors (or warnings \
            under --strict), 2 when a file cannot be read or the policy is not valid (run `prelude policy validate`), \
            or when the app, the revision or the database does not exist or the revision cannot be served.
            """
    )

    @Argument(help: "The policy document (JSON). Use - for standard input. Not with --app.")
    var file: String?

    @Option(help: "Lint the revision the database stores for this app (its live one, or --revision) instead of a file.")
    var app: String?

    @Option(help: "With --app: a revision number. [default: the live revision]")
    var revision: Int?

    @Flag(name: .long, help: "Print the result as JSON.")
    var json = false

    @Flag(name: .long, help: "Fail on warnings too.")
    var strict = false

    @Option(name: .customLong("info-plist-strings"), help: "A JSON file of Info.plist purpose strings to lint too.")
    var infoPlistStrings: String?

    @Option(name: .long, help: "The locale of a one-locale --info-plist-strings file.")
    var locale: String?

    @OptionGroup var options: DatabaseOptions

    func validate() throws {
        switch (file, app) {
        case (nil, nil): throw ValidationError("give a policy file, or --app to lint a stored revision")
        case (.some, .some): throw ValidationError("give a policy file or --app, not both")
        default: break
        }
        if revision != nil, app == nil { throw ValidationError("--revision needs --app") }
        if let revision, revision < 1 { throw ValidationError("--revision must be 1 or more") }
    }

    func run() throws {
        let (name, document, stored) = try app.map(storedDocument) ?? fileDocument(file ?? "-")
        var findings = (CopyLinter.lint(document) + stored).sorted()
        if let infoPlistStrings {
            let bytes = try readOrExit(infoPlistStrings)
            let stringsJSON: JSONValue
            do {
                stringsJSON = try JSONValue(parsing: bytes)
            } catch {
                fail("\(infoPlistStrings): \(error)")
            }
            switch PurposeStrings.parse(stringsJSON) {
            case .oneLocale(let strings):
                findings += PurposeStringLinter.lint(
                    strings: strings, locale: locale ?? document.app.defaultLocale.description)
            case .byLocale(let strings):
                findings += PurposeStringLinter.lint(stringsByLocale: strings)
            case .invalid(let reason):
                fail("\(infoPlistStrings): \(reason)")
            }
        }
        let count = { (severity: LintSeverity) in findings.filter { $0.severity == severity }.count }
        let failing = findings.contains { $0.severity == .error || (strict && $0.severity == .warning) }
        if json {
            let result: JSONValue = [
                "clean": .bool(!failing), "errors": .integer(count(.error)), "warnings": .integer(count(.warning)),
                "infos": .integer(count(.info)), "findings": .array(findings.map(\.jsonValue)),
            ]
            print(result.serialized(.pretty), terminator: "")
        } else {
            for finding in findings { print(finding.description) }
            print(
                "\(name): \(CountedNoun.text(count(.error), "error")), \(CountedNoun.text(count(.warning), "warning")), "
                    + CountedNoun.text(count(.info), "info"))
        }
        if failing { throw ExitCode(1) }
    }

    /// The policy file's document; exit 2 when it is not a valid policy.
    private func fileDocument(_ file: String) throws -> (String, PolicyDocument, [LintFinding]) {
        let validation = PolicyValidator.validate(bytes: try readOrExit(file))
        guard let document = validation.document else {
            for problem in validation.problems { StandardIO.error("\(problem.description)\n") }
            fail(
                "\(file) is not a valid policy (\(CountedNoun.text(validation.problems.count, "problem"))); lint needs a valid document."
            )
        }
        return (file, document, [])
    }

    /// The stored revision as this build serves it (``StoredPolicyReader``), with a `STORED` finding per rule it no
    /// longer meets; exit 2 naming what is missing or why it cannot be served.
    private func storedDocument(_ app: String) throws -> (String, PolicyDocument, [LintFinding]) {
        let (configuration, store) = try options.openMigratedStore()
        defer { store.database.close() }
        let export: PolicyRepository.Export
        do {
            export = try store.policies.export(
                app: app, environment: EnvironmentName.production, revision: revision)
        } catch {
            fail("\(configuration.database): \(error)")
        }
        switch export {
        case .noApp: fail("no app \"\(app)\" in the database")
        case .noLiveRevision: fail("app \"\(app)\" has no live revision; pass --revision")
        case .noRevision(let number, let highest):
            fail("app \"\(app)\" has no revision \(number)" + (highest.map { " (revisions 1–\($0))" } ?? ""))
        case .found(let number, let text):
            let name = "app \(app) revision \(number)"
            let reading = StoredPolicyReader.read(text: text)
            guard let document = reading.document else {
                for problem in reading.findings { StandardIO.error("\(problem.description)\n") }
                fail("\(name) cannot be served by this build: \(reading.refusal ?? "not a policy")")
            }
            return (name, document, reading.findings.map(LintFinding.stored))
        }
    }

    private func readOrExit(_ path: String) throws -> [UInt8] {
        do {
            return try PolicyFile.read(path)
        } catch {
            fail("\(error)")
        }
    }

    private func fail(_ message: String) -> Never {
        StandardIO.error("prelude: \(message)\n")
        StandardIO.exit(2)
    }
}

/// The two shapes `--info-plist-strings` accepts.
enum PurposeStrings {
    case oneLocale([String: String])
    case byLocale([String: [String: String]])
    case invalid(String)

    /// `{"Key": "text"}` or `{"locale": {"Key": "text"}}`.
    static func parse(_ json: JSONValue) -> PurposeStrings {
        guard case .object(let object) = json else { return .invalid("expected a JSON object.") }
        if object.members.allSatisfy({ $0.value.stringValue != nil }) {
            return .oneLocale(Dictionary(uniqueKeysWithValues: object.members.map { ($0.key, $0.value.stringValue!) }))
        }
        var byLocale: [String: [String: String]] = [:]
        for (locale, value) in object {
            guard case .object(let strings) = value, strings.members.allSatisfy({ $0.value.stringValue != nil }) else {
                return .invalid("\"\(locale)\" must map purpose-string keys to strings.")
            }
            byLocale[locale] = Dictionary(uniqueKeysWithValues: strings.members.map { ($0.key, $0.value.stringValue!) })
        }
        return .byLocale(byLocale)
    }
}
