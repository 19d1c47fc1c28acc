/// One row of the table of settings (``ConfigurationSetting/definition``): its names, default, help and parser.
package struct SettingDefinition {
    /// The environment variable, e.g. `PRELUDE_PORT`.
    package let environmentVariable: String
    /// The command-line flag, e.g. `--port`.
    package let flag: String
    /// The built-in default.
    package let defaultValue: SettingDefault
    /// The sentence `--help` shows, without the default.
    package let help: String
    /// The placeholder `--help` shows for the value (`--port <port>`).
    package let valueName: String
    /// The commands that take the flag.
    package let commands: SettingCommands
    /// Whether the JSON file gives the setting as a number (else a string): whether its value is one.
    let isNumeric: Bool
    /// Parses the text (`raw`, trimmed first) into the configuration.
    private let store: (inout ServiceConfiguration, _ value: String, _ raw: String) throws(SettingProblem) -> Void

    /// A row whose value `parser` reads into `keyPath`.
    init<Value>(
        _ environmentVariable: String, _ flag: String, default defaultValue: SettingDefault, help: String,
        valueName: String, commands: SettingCommands = .serve, _ parser: SettingParser<Value>,
        into keyPath: WritableKeyPath<ServiceConfiguration, Value>
    ) {
        self.environmentVariable = environmentVariable
        self.flag = flag
        self.defaultValue = defaultValue
        self.help = help
        self.valueName = valueName
        self.commands = commands
        isNumeric = [Int.self, Int?.self, Double.self].contains { $0 == Value.self }
        store = { (configuration, value, raw) throws(SettingProblem) in
            configuration[keyPath: keyPath] = try parser.parse(value, raw)
        }
    }

    /// The `--help` text: the sentence and the default.
    package var commandLineHelp: String {
        switch defaultValue {
        case .value(let text), .unset(.some(let text)): "\(help) [default: \(text)]"
        case .unset(nil): help
        }
    }

    /// Parses `raw` (trimmed of whitespace first) and stores it in `configuration`.
    func apply(_ raw: String, to configuration: inout ServiceConfiguration) throws(SettingProblem) {
        try store(&configuration, raw.trimmingWhitespace(), raw)
    }
}

/// A setting's built-in default.
package enum SettingDefault: Equatable, Sendable, ExpressibleByStringLiteral {
    /// A value, as the text its parser reads (`"8080"`); `--help` and docs/configuration.md show it.
    case value(String)
    /// No value (nil or empty); the text, if any, is what `--help` says happens instead.
    case unset(String?)

    /// A value default.
    package init(stringLiteral value: String) { self = .value(value) }
}

/// Which commands take a setting's flag. Every command reads every setting from the file and the environment.
package enum SettingCommands: Sendable {
    /// Every command that opens the database.
    case everyDatabaseCommand
    /// `serve` only (and a command that declares the flag itself, such as `events prune --event-retention-days`).
    case serve
}
