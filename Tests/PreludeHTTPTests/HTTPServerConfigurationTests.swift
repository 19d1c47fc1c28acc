import PreludeHTTP
import Testing

@Suite struct HTTPServerConfigurationTests {
    @Test func defaultsAreValid() throws {
        try HTTPServerConfiguration().validate()
    }

    static func broken(_ setting: String) -> HTTPServerConfiguration {
        var c = HTTPServerConfiguration()
        switch setting {
        case "port": c.port = 99999
        case "eventLoopCount": c.eventLoopCount = 0
        case "maxHeaderBytes": c.maxHeaderBytes = 100
        case "headerTimeout": c.headerTimeout = 0
        case "keepAliveTimeout": c.keepAliveTimeout = .infinity
        case "serverName": c.serverName = "bad\r\nname"
        default: preconditionFailure("no case for \(setting)")
        }
        return c
    }

    @Test(arguments: ["port", "eventLoopCount", "maxHeaderBytes", "headerTimeout", "keepAliveTimeout", "serverName"])
    func namesTheBadSetting(setting: String) {
        let configuration = Self.broken(setting)
        do {
            try configuration.validate()
            Issue.record("\(setting) accepted")
        } catch {
            #expect(error.setting == setting)
        }
    }

    @Test func startRefusesABadConfigurationAndAPortInUse() throws {
        var bad = HTTPServerConfiguration(host: "127.0.0.1", port: 0)
        bad.maxConnections = 0
        #expect(throws: HTTPServerConfiguration.InvalidSetting.self) {
            try HTTPServer(configuration: bad, router: Router()).start()
        }
        let first = try TestServer.make()
        defer { first.stop() }
        let clash = HTTPServer(
            configuration: HTTPServerConfiguration(host: "127.0.0.1", port: first.port), router: Router())
        #expect(throws: SocketError.self) { try clash.start() }
        #expect(throws: SocketError.self) {
            try HTTPServer(
                configuration: HTTPServerConfiguration(host: "no-such-host.invalid", port: 0), router: Router()
            ).start()
        }
    }
}
