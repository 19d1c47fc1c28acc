/// A reason the service cannot start, other than a bad setting (`ConfigurationError`) or a refused
/// migration (`MigrationError`). The description is printed before the non-zero exit.
package enum StartupError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A resource (migrations directory, demo policy) was not found in any searched place.
    case resourceNotFound(setting: ConfigurationSetting, path: String, searched: [String])
    /// The demo policy file is not a JSON object.
    case invalidDemoPolicy(path: String, reason: String)

    /// The operator-facing message.
    package var description: String {
        switch self {
        case .resourceNotFound(let setting, let path, let searched):
            "\(setting.jsonKey) (\(setting.environmentVariable) / \(setting.flag)): \(path) not found; looked in "
                + searched.joined(separator: ", ")
        case .invalidDemoPolicy(let path, let reason):
            "demoPolicy (PRELUDE_DEMO_POLICY / --demo-policy): \(path) is not a JSON object: \(reason)"
        }
    }
}
