import Testing

@testable import PreludeService

/// Standard Webhooks signatures and secrets, and the allowlist's URL checks: pure, no I/O.
@Suite struct WebhookSigningTests {
    @Test func signsLikeTheStandardWebhooksLibraries() throws {
        // The test vector of the Standard Webhooks reference libraries; Python's hmac gives the same value
        // (base64(hmac.new(key, b"msg_….1614265330.{…}", sha256).digest())).
        let key = try #require(WebhookSecret.key("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"))
        #expect(key.count == 24)
        let signature = WebhookSignature.sign(
            id: "msg_p5jXN8AQM9LWM0D4loKWxJek", timestamp: 1_614_265_330, body: Array(#"{"test": 2432232314}"#.utf8),
            key: key)
        #expect(signature == "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
    }

    @Test func generatesAndChecksSecrets() {
        let secret = WebhookSecret.generate()
        #expect(secret.hasPrefix("whsec_") && WebhookSecret.key(secret)?.count == 32)
        #expect(WebhookSecret.generate() != secret)
        #expect(WebhookSecret.key("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw") == nil)  // no prefix
        #expect(WebhookSecret.key("whsec_c2hvcnQ=") == nil)  // 5 bytes
        #expect(WebhookSecret.key("whsec_not base64!") == nil)
    }

    @Test(arguments: [
        ("https://hooks.example.com/p?x=1", true),
        ("https://a.hooks.example.com/p", true),
        ("https://HOOKS.example.com:443/", true),
        ("http://hooks.example.com/p", false),  // plain HTTP not allowed for it
        ("https://example.com/", false),  // the wildcard's apex is not matched
        ("https://evilhooks.example.com.attacker.net/", false),
        ("https://receiver.internal:8443/h", true),
        ("https://receiver.internal:8444/h", false),  // port-restricted entry
        ("http://plain.internal:8080/h", true),
        ("https://plain.internal/h", true),
        ("https://user:pw@hooks.example.com/", false),
        ("https://hooks.example.com\\@127.0.0.1/", false),
        ("https://hooks.example.com/#frag", false),
        ("https://[fd00::1]:9000/x", true),
        ("https://[fd00::1]/x", true),
        ("gopher://hooks.example.com/", false),
        ("https://127.0.0.1/", false),
    ])
    func allowsOnlyListedHostsAndSchemes(url: String, allowed: Bool) throws {
        let allowlist = try WebhookAllowlist(
            parsing: "hooks.example.com, *.hooks.example.com receiver.internal:8443,http://plain.internal,[fd00::1]")
        let result = allowlist.check(url)
        if allowed {
            #expect(throws: Never.self, "\(url)") { try result.get() }
        } else {
            #expect(throws: WebhookAllowlist.Refusal.self, "\(url)") { try result.get() }
        }
    }

    @Test func refusesBadEntriesAndAllowsNothingWhenEmpty() {
        #expect(throws: WebhookAllowlist.InvalidEntry(entry: "bad_host")) {
            try WebhookAllowlist(parsing: "ok.example.com,bad_host")
        }
        #expect(throws: WebhookAllowlist.InvalidEntry(entry: "h:99999")) { try WebhookAllowlist(parsing: "h:99999") }
        #expect(
            WebhookAllowlist().check("https://hooks.example.com/") == .failure(.hostNotAllowed("hooks.example.com")))
        #expect(
            (try? WebhookAllowlist(parsing: "")).map { $0.check("https://localhost/") }
                == .failure(.hostNotAllowed("localhost")))
    }
}

/// Issue 35: a refusal for a host on the allowlist with another port named the host only.
@Suite struct WebhookAllowlistPortTests {
    static func refusal(_ allowlist: WebhookAllowlist, _ url: String) -> String? {
        guard case .failure(let refusal) = allowlist.check(url) else { return nil }
        return refusal.description
    }

    @Test func aListedHostOnAnotherPortNamesThePortThatDiffers() throws {
        let allowlist = try WebhookAllowlist(parsing: "receiver.internal:8443, receiver.internal:9443, other.example")
        let detail = try #require(Self.refusal(allowlist, "https://receiver.internal/hook"))
        #expect(detail.contains("port 443 of host 'receiver.internal'"), "\(detail)")
        #expect(detail.contains("only on ports 8443, 9443"), "\(detail)")
        #expect(detail.contains("'receiver.internal:443'"), "\(detail)")
        let wildcard = try WebhookAllowlist(parsing: "*.hooks.example:8443")
        let sub = try #require(Self.refusal(wildcard, "https://a.hooks.example:444/"))
        #expect(sub.contains("port 444 of host 'a.hooks.example'") && sub.contains("only on port 8443"), "\(sub)")
        // A host not listed at all is still refused as a host.
        let elsewhere = Self.refusal(allowlist, "https://elsewhere.example/")
        #expect(elsewhere?.contains("host 'elsewhere.example' is not") == true)
        #expect(Self.refusal(allowlist, "https://receiver.internal:8443/") == nil)
    }
}
