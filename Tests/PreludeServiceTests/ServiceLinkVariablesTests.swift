import Testing

@testable import PreludeService

/// Kubernetes injects `PRELUDE_*` variables for a Service named `prelude`; they must not stop the pod.
@Suite struct ServiceLinkVariablesTests {
    /// What the kubelet sets for Service `prelude` (cluster IP 10.96.12.34, port 8080/TCP named `http`).
    static let injected = [
        "PRELUDE_PORT": "tcp://10.96.12.34:8080",
        "PRELUDE_SERVICE_HOST": "10.96.12.34",
        "PRELUDE_SERVICE_PORT": "8080",
        "PRELUDE_SERVICE_PORT_HTTP": "8080",
        "PRELUDE_PORT_8080_TCP": "tcp://10.96.12.34:8080",
        "PRELUDE_PORT_8080_TCP_PROTO": "tcp",
        "PRELUDE_PORT_8080_TCP_PORT": "8080",
        "PRELUDE_PORT_8080_TCP_ADDR": "10.96.12.34",
    ]

    @Test func injectedServiceVariablesAreIgnoredAndTheDefaultPortKept() throws {
        let configuration = try ServiceConfiguration.resolve(fileText: nil, environment: Self.injected, flags: [:])
        #expect(configuration.port == 8080)
        #expect(configuration.ignoredServiceLinkVariables == Self.injected.keys.sorted())
    }

    @Test func theInjectedPortLinkDoesNotOverrideTheConfiguredPort() throws {
        let configuration = try ServiceConfiguration.resolve(
            fileText: #"{"port": 9000}"#, environment: ["PRELUDE_PORT": "tcp://10.96.12.34:80"], flags: [:])
        #expect(configuration.port == 9000)
    }

    @Test(arguments: [
        ("PRELUDE_PROT", "1"),  // a typo of a setting
        ("PRELUDE_PORT", "tcp:/10.96.12.34:8080"),  // neither a port nor a link
        ("PRELUDE_PORT", "http://10.96.12.34:8080"),  // not a Service protocol
        ("PRELUDE_SERVICE_HOST", "db.example.com"),  // Kubernetes writes the cluster IP
        ("PRELUDE_SERVICE_PORT", "http"),
        ("PRELUDE_PORT_8080_TCP", "tcp://10.96.12.34:9090"),  // port differs from the name's
        ("PRELUDE_PORT_8080_TCP_PROTO", "udp"),
        ("PRELUDE_PORT_8080_HTTP", "tcp://10.96.12.34:8080"),
        ("PRELUDE_PORT_8080_TCP_HOST", "10.96.12.34"),
        ("PRELUDE_SERVICE_PORT_", "8080"),
    ])
    func lookalikesAreStillRefused(name: String, value: String) {
        let error = #expect(throws: ConfigurationError.self) {
            try ServiceConfiguration.resolve(fileText: nil, environment: [name: value], flags: [:])
        }
        #expect(error?.setting == name)
    }

    @Test func serveStartsBesideAServiceNamedPreludeAndLogsTheIgnoredNamesOnce() throws {
        let fixture = ServiceFixture()
        let server = try ServerProcess.start(
            database: fixture.path("k8s.sqlite"), policy: fixture.path("demo.json"), environment: Self.injected)
        defer { server.killHard() }
        #expect(try TestTransport.live(port: server.port).get("/readyz").status == 200)
        let lines = server.startLog.split(separator: "\n").filter {
            $0.contains("ignored Kubernetes service variables")
        }
        #expect(lines.count == 1)
        #expect(lines.first?.contains("PRELUDE_PORT_8080_TCP_ADDR") == true)
    }

    @Test func aTypoStillStopsStartUpWithExitStatus78() throws {
        let fixture = ServiceFixture()
        let run = try CommandLineTests.runPrelude(
            ["migrate", "--database", fixture.path("typo.sqlite")],
            environment: Self.injected.merging(["PRELUDE_PROT": "1"]) { $1 }, in: fixture.directory)
        #expect(run.status == 78)
        #expect(run.stderr.contains("PRELUDE_PROT"))
    }
}
