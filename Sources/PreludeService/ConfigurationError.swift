/// A setting that cannot be used. The message names the setting and where its value came from.
package struct ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The setting's name as the user wrote it (`port`, `PRELUDE_PORT`, `--port`) or the file.
    package let setting: String
    /// What is wrong and what is accepted.
    package let problem: String

    /// Creates an error.
    package init(setting: String, problem: String) {
        self.setting = setting
        self.problem = problem
    }

    /// `invalid configuration: PRELUDE_PORT: 99999 is not a TCP port (0–65535)`.
    package var description: String { "invalid configuration: \(setting): \(problem)" }
}
