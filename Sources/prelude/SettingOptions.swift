import ArgumentParser
import PreludeService

extension Option where Value == String? {
    /// The option of a setting, named and described by its row of the table (``ConfigurationSetting/definition``).
    /// The property must carry the setting's name (`@Option(setting: .port) var port`): ``SettingOptions`` finds the
    /// value by it. The value stays text so that ``ServiceConfiguration`` checks it like every other source.
    init(setting: ConfigurationSetting, help: String? = nil) {
        let definition = setting.definition
        self.init(
            name: .customLong(String(definition.flag.dropFirst(2))),
            help: ArgumentHelp(help ?? definition.commandLineHelp, valueName: definition.valueName))
    }
}

/// The setting flags a parsed command was given.
enum SettingOptions {
    /// The values of `options`' setting options (``Option/init(setting:help:)``), by setting.
    static func given(in options: some ParsableArguments) -> [ConfigurationSetting: String] {
        var flags: [ConfigurationSetting: String] = [:]
        for child in Mirror(reflecting: options).children {
            // A property wrapper's storage is labelled with an underscore before the property's name.
            guard let label = child.label, label.hasPrefix("_"),
                let setting = ConfigurationSetting(rawValue: String(label.dropFirst())),
                let option = child.value as? Option<String?>
            else { continue }
            flags[setting] = option.wrappedValue
        }
        return flags
    }
}
