import ArgumentParser
import PreludeCore

#if canImport(FoundationEssentials)
    import Dispatch
    import FoundationEssentials
    import Glibc
#else
    import Foundation
#endif

/// `prelude policy lint FILE [--json] [--strict] [--info-plist-strings FILE.json] [--locale TAG]`.
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
            Exit status: 0 without errors (warnings and infos allowed unless --strict), 1 with errors (or warnings \
            under --strict), 2 when a file cannot be read or the policy is not valid (run `prelude policy validate`).
            """
    )

    @Argument(help: "The policy document (JSON). Use - for standard input.")
    var file: String

    @Flag(name: .long, help: "Print the result as JSON.")
    var json = false

    @Flag(name: .long, help: "Fail on warnings too.")
    var strict = false

    @Option(name: .customLong("info-plist-strings"), help: "A JSON file of Info.plist purpose strings to lint too.")
    var infoPlistStrings: String?

    @Option(name: .long, help: "The locale of a one-locale --info-plist-strings file.")
    var locale: String?

    func run() throws {
        let validation = PolicyValidator.validate(bytes: try readOrExit(file))
        guard let document = validation.document else {
            for problem in validation.problems { StandardIO.error("\(problem.description)\n") }
            fail(
                "\(file) is not a valid policy (\(CountedNoun.text(validation.problems.count, "problem"))); lint needs a valid document."
            )
        }
        var findings = CopyLinter.lint(document)
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
                "\(file): \(CountedNoun.text(count(.error), "error")), \(CountedNoun.text(count(.warning), "warning")), "
                    + CountedNoun.text(count(.info), "info"))
        }
        if failing { throw ExitCode(1) }
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
