import PreludeService
import Testing

@testable import prelude

/// Every setting of the table (``ConfigurationSetting/definition``) has its flag on the commands it names: a setting
/// the command line misses, or an option whose property is not named after its setting, fails here.
@Suite struct SettingOptionsTests {
    @Test(arguments: ConfigurationSetting.allCases)
    func serveTakesTheSettingsFlag(setting: ConfigurationSetting) throws {
        let options = try ServeOptions.parse([setting.flag, "value"])
        #expect(options.flags.merging(options.databaseOptions.flags) { $1 } == [setting: "value"])
    }

    @Test(arguments: ConfigurationSetting.allCases)
    func databaseCommandsTakeExactlyTheirSettings(setting: ConfigurationSetting) throws {
        switch setting.definition.commands {
        case .everyDatabaseCommand:
            #expect(try DatabaseOptions.parse([setting.flag, "value"]).flags == [setting: "value"])
        case .serve:
            #expect(throws: (any Error).self) { try DatabaseOptions.parse([setting.flag, "value"]) }
        }
    }

    @Test func commandsDeclaringASettingTakeIt() throws {
        let prune = try EventsCommand.Prune.parse(["--event-retention-days", "7", "--database", "x.sqlite"])
        #expect(SettingOptions.given(in: prune) == [.eventRetentionDays: "7"])
        #expect(try HealthcheckCommand.parse(["--tls-ca-file", "ca.pem"]).tlsCAFile == "ca.pem")
        #expect(
            SettingOptions.given(in: try CopyCommand.parse(["--from", "a", "--to", "b", "--migrations-dir", "m"]))
                == [.migrationsDirectory: "m"])
    }

    @Test func noFlagMeansNoSetting() throws {
        let options = try ServeOptions.parse([])
        #expect(options.flags.isEmpty)
        #expect(options.databaseOptions.flags.isEmpty)
    }
}
