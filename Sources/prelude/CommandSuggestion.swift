import ArgumentParser
import PreludeCore

#if canImport(FoundationEssentials)
    import Dispatch
    import FoundationEssentials
    import Glibc
#else
    import Foundation
#endif

/// Catches a mistyped subcommand before argument parsing: with `serve` as the default subcommand, the parser would
/// otherwise report `prelude tokn list` as "unexpected argument 'tokn'" of `serve`.
enum CommandSuggestion {
    /// The refusal for the first word of `arguments` that is not a subcommand where one is expected, naming the
    /// closest subcommand(s); nil when every word is fine.
    static func problem(in arguments: [String], root: any ParsableCommand.Type) -> String? {
        var command = root
        var path = [name(of: root)]
        for argument in arguments {
            let subcommands = command.configuration.subcommands
            guard !argument.hasPrefix("-"), !subcommands.isEmpty, argument != "help" else { return nil }
            if let next = subcommands.first(where: { name(of: $0) == argument }) {
                command = next
                path.append(argument)
                continue
            }
            let names = subcommands.map(name(of:))
            let best = names.map { ($0, distance($0, argument)) }.filter { $0.1 <= max(2, argument.count / 3) }
                .sorted { $0.1 < $1.1 }
            let hint = best.first.map { " Did you mean '\($0.0)'?" } ?? ""
            return "unknown command '\(argument)' for '\(path.joined(separator: " "))'.\(hint) "
                + "Commands: \(names.joined(separator: ", ")) (see '\(path.joined(separator: " ")) --help')."
        }
        return nil
    }

    /// The name a command is called by on the command line.
    static func name(of command: any ParsableCommand.Type) -> String {
        command.configuration.commandName ?? String(describing: command).lowercased()
    }

    /// The Levenshtein distance turning `a` into `b`: the core's, which every "did you mean …?" of the service uses.
    static func distance(_ a: String, _ b: String) -> Int { TypoSuggestion.editDistance(Array(a), Array(b)) }
}
