import Testing

@testable import PreludeService

@Suite struct ConfigurationTests {
    @Test func defaultsWorkOnALaptop() throws {
        let configuration = try ServiceConfiguration.resolve(fileText: nil, environment: [:], flags: [:])
        #expect(configuration.host == "127.0.0.1")
        #expect(configuration.port == 8080)
        #expect(configuration.database == "prelude.sqlite")
        #expect(configuration.logLevel == .info)
    }

    @Test func flagsBeatEnvironmentWhichBeatsTheFile() throws {
        let file = #"{"host": "0.0.0.0", "port": 9000, "database": "file.sqlite", "logLevel": "debug"}"#
        let environment = ["PRELUDE_PORT": "9100", "PRELUDE_DATABASE": "env.sqlite", "HOME": "/root", "PATH": "/bin"]
        let configuration = try ServiceConfiguration.resolve(
            fileText: file, environment: environment, flags: [.database: "flag.sqlite"])
        #expect(configuration.host == "0.0.0.0")  // file only
        #expect(configuration.port == 9100)  // env beats file
        #expect(configuration.database == "flag.sqlite")  // flag beats env and file
        #expect(configuration.logLevel == .debug)
    }

    @Test func checkpointsSettingFromEachSource() throws {
        #expect(ServiceConfiguration().checkpoints == .truncate)
        #expect(
            try ServiceConfiguration.resolve(fileText: #"{"checkpoints": "passive"}"#, environment: [:], flags: [:])
                .checkpoints == .passive)
        #expect(
            try ServiceConfiguration.resolve(fileText: nil, environment: ["PRELUDE_CHECKPOINTS": "PASSIVE"], flags: [:])
                .checkpoints == .passive)
        #expect(
            try ServiceConfiguration.resolve(
                fileText: nil, environment: ["PRELUDE_CHECKPOINTS": "passive"], flags: [.checkpoints: "truncate"]
            ).checkpoints == .truncate)
    }

    @Test func repositoryConfigFileHoldsTheDefaults() throws {
        let root = #filePath.split(separator: "/").dropLast(3).joined(separator: "/")
        let text = try String(contentsOfFile: "/\(root)/config/prelude.json", encoding: .utf8)
        #expect(
            try ServiceConfiguration.resolve(fileText: text, environment: [:], flags: [:]) == ServiceConfiguration())
    }

    @Test(arguments: [
        (ConfigurationSetting.port, "99999", "'99999' is not a TCP port"),
        (.port, "-1", "is not a TCP port"),
        (.port, "80x", "is not a TCP port"),
        (.host, "", "is not an IP address or host name"),
        (.host, "local host", "is not an IP address or host name"),
        (.logLevel, "verbose", "is not a log level"),
        (.database, "", "database path is empty"),
        (.shutdownGracePeriod, "soon", "is not a number of seconds"),
        (.databaseReaders, "0", "is not a reader count"),
        (.checkpoints, "off", "is not a checkpoint mode (truncate, passive)"),
    ])
    func badFlagValuesNameTheFlag(setting: ConfigurationSetting, value: String, problem: String) {
        let error = #expect(throws: ConfigurationError.self) {
            try ServiceConfiguration.resolve(fileText: nil, environment: [:], flags: [setting: value])
        }
        #expect(error?.setting == setting.flag)
        #expect(error?.problem.contains(problem) == true, "\(error?.problem ?? "")")
    }

    @Test func badEnvironmentValueNamesTheVariable() {
        let error = #expect(throws: ConfigurationError.self) {
            try ServiceConfiguration.resolve(fileText: nil, environment: ["PRELUDE_PORT": "99999"], flags: [:])
        }
        #expect(error?.setting == "PRELUDE_PORT")
        #expect(
            error?.description
                == "invalid configuration: PRELUDE_PORT: '99999' is not a TCP port (0–65535; 0 picks a free port)")
    }

    @Test func unknownPreludeVariableIsRejected() {
        let error = #expect(throws: ConfigurationError.self) {
            try ServiceConfiguration.resolve(fileText: nil, environment: ["PRELUDE_PROT": "8080"], flags: [:])
        }
        #expect(error?.setting == "PRELUDE_PROT")
        #expect(error?.problem.contains("unknown environment variable") == true)
    }

    @Test func curlClientVariablesDoNotStopTheServer() throws {
        // docs/admin.md has operators export these for curl; `prelude` in the same shell must still start.
        let environment = ["PRELUDE_URL": "http://127.0.0.1:8080", "PRELUDE_TOKEN": "prl_x", "PRELUDE_PORT": "9000"]
        #expect(try ServiceConfiguration.resolve(fileText: nil, environment: environment, flags: [:]).port == 9000)
    }

    @Test func configVariableIsNotASettingButIsKnown() throws {
        _ = try ServiceConfiguration.resolve(fileText: nil, environment: ["PRELUDE_CONFIG": "x.json"], flags: [:])
    }

    @Test func unknownFileKeyIsRejected() {
        let error = #expect(throws: ConfigurationError.self) {
            try ServiceConfiguration.resolve(
                fileText: #"{"prot": 8080}"#, fileName: "my.json", environment: [:], flags: [:])
        }
        #expect(error?.setting == "my.json: prot")
        #expect(error?.problem.contains("unknown key") == true)
    }

    @Test(arguments: [
        (#"{"port": "8080"}"#, "must be a JSON number"),
        (#"{"port": true}"#, "must be a JSON number"),
        (#"{"host": 1}"#, "must be a JSON string"),
        (#"{"port": 70000}"#, "is not a TCP port"),
        (#"[1, 2]"#, "must hold a JSON object"),
        (#"{"port": "#, "not valid JSON"),
    ])
    func badFileContentIsRejected(text: String, problem: String) {
        let error = #expect(throws: ConfigurationError.self) {
            try ServiceConfiguration.resolve(fileText: text, fileName: "my.json", environment: [:], flags: [:])
        }
        #expect(error?.setting.hasPrefix("my.json") == true)
        #expect(error?.problem.contains(problem) == true, "\(error?.problem ?? "")")
    }

    @Test func unwritableDatabasePathNamesTheSetting() {
        let error = #expect(throws: ConfigurationError.self) {
            try DatabasePathCheck.check("/nonexistent-dir/p.sqlite")
        }
        #expect(error?.setting.hasPrefix("database") == true)
        #expect(error?.problem.contains("does not exist") == true)
    }

    @Test func directoryAsDatabaseIsRejected() {
        let error = #expect(throws: ConfigurationError.self) { try DatabasePathCheck.check("/tmp") }
        #expect(error?.problem.contains("is a directory") == true)
    }
}
