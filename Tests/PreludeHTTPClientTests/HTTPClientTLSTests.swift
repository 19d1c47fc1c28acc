import PreludeHTTPClient
import PreludeTestSupport
import Testing

/// Certificate verification against a real TLS server (nginx with a CA made for the run): on by default, satisfied
/// by the CA file setting, and checking the host name as well as the chain.
@Suite(
    .serialized,
    .enabled(
        if: NginxTLSFront.installed,
        "nginx or openssl is missing and `apt-get install nginx` failed; the TLS tests need a real TLS endpoint"))
struct HTTPClientTLSTests {
    @Test func verifiesAgainstTheCAFileAndRefusesWithoutIt() throws {
        let endpoint = try NginxTLSFront(.fixed(path: "/hello", body: "hello over tls"))
        defer { endpoint.stop() }
        let url = "https://localhost:\(endpoint.port)/hello"

        let trusting = HTTPClient(configuration: HTTPClientConfiguration(caFile: endpoint.caFile))
        let response = try trusting.send("GET", url: url)
        #expect(response.status == 200)
        #expect(response.text == "hello over tls")

        // The system's bundle does not know the run's CA: verification is on by default.
        #expect(HTTPClientTests.failure { try HTTPClient().send("GET", url: url) } == .tls)
        // The right chain for the wrong name: the certificate names only `localhost`.
        #expect(
            HTTPClientTests.failure { try trusting.send("GET", url: "https://127.0.0.1:\(endpoint.port)/hello") }
                == .tls)
    }

    @Test func reportsAnUnreadableCAFile() throws {
        let endpoint = try NginxTLSFront(.fixed(path: "/hello", body: "hello over tls"))
        defer { endpoint.stop() }
        let client = HTTPClient(configuration: HTTPClientConfiguration(caFile: endpoint.directory + "/missing.pem"))
        let error = HTTPClientTests.error { try client.send("GET", url: "https://localhost:\(endpoint.port)/hello") }
        #expect(error?.kind == .tls)
    }
}
