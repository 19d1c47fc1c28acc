/// Which hosts webhooks may be delivered to (`webhookAllowedHosts`, docs/configuration.md): a webhook URL names a
/// host the server will connect to, so without a list a token holder could make the server call into its own
/// network (docs/webhooks.md, "Safety"). Empty, the default, allows no host at all.
///
/// An entry is a host name or IP address (`hooks.example.com`, `10.1.2.3`, `[fd00::1]`), optionally with a port
/// (`receiver.internal:8443`: that port only), or `*.example.com` (any name under it, not `example.com` itself).
/// HTTPS is required; an entry written `http://host[:port]` also allows plain HTTP to that host.
package struct WebhookAllowlist: Sendable, Equatable {
    /// One allowed host pattern.
    package struct Entry: Sendable, Equatable {
        /// The lowercased host, without `*.` for a wildcard.
        package var host: String
        /// Whether any name ending in `.host` matches (and not `host` itself).
        package var wildcard: Bool
        /// The only port allowed; nil allows any.
        package var port: Int?
        /// Whether plain `http://` is allowed too.
        package var plainHTTP: Bool

        func matches(_ target: WebhookURL) -> Bool {
            if let port, port != target.port { return false }
            return wildcard ? target.host.hasSuffix("." + host) : target.host == host
        }
    }

    /// A refused configuration entry.
    package struct InvalidEntry: Error, Sendable, Equatable {
        /// The entry as written.
        package var entry: String
    }

    /// The entries, in configuration order.
    package var entries: [Entry]

    /// An allowlist of `entries` (none: nothing is allowed).
    package init(entries: [Entry] = []) { self.entries = entries }

    /// Parses a comma- or whitespace-separated list of entries.
    package init(parsing text: String) throws(InvalidEntry) {
        var entries: [Entry] = []
        for raw in text.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\n" || $0 == "\t" }) {
            var rest = Substring(raw.lowercased())
            var plainHTTP = false
            if rest.hasPrefix("http://") {
                plainHTTP = true
                rest = rest.dropFirst("http://".count)
            }
            var wildcard = false
            if rest.hasPrefix("*.") {
                wildcard = true
                rest = rest.dropFirst(2)
            }
            guard let parsed = WebhookURL.authority(rest), !(wildcard && parsed.host.hasPrefix("[")) else {
                throw InvalidEntry(entry: String(raw))
            }
            entries.append(Entry(host: parsed.host, wildcard: wildcard, port: parsed.port, plainHTTP: plainHTTP))
        }
        self.entries = entries
    }

    /// Why ``check(_:)`` refused a URL.
    package enum Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        /// Not an absolute `https://` or `http://` URL this service can send to.
        case malformed(String)
        /// The host is not on the list.
        case hostNotAllowed(String)
        /// The host is on the list, but only with other ports (`allowed`, sorted) than the URL's `port`.
        case portNotAllowed(host: String, port: Int, allowed: [Int])
        /// Plain HTTP to a host whose entry does not allow it.
        case plainHTTPNotAllowed(String)

        /// A sentence for a problem's detail or a delivery's last error.
        package var description: String {
            switch self {
            case .malformed(let reason): reason
            case .hostNotAllowed(let host):
                "host '\(host)' is not in webhookAllowedHosts (PRELUDE_WEBHOOK_ALLOWED_HOSTS); an empty list allows none"
            case .portNotAllowed(let host, let port, let allowed):
                "port \(port) of host '\(host)' is not in webhookAllowedHosts, which allows '\(host)' only on port"
                    + "\(allowed.count == 1 ? "" : "s") \(allowed.map(String.init).joined(separator: ", ")); "
                    + "list '\(host):\(port)' to allow it"
            case .plainHTTPNotAllowed(let host):
                "plain http:// to '\(host)' is not allowed: use https://, or list the host as 'http://\(host)' in "
                    + "webhookAllowedHosts"
            }
        }
    }

    /// The URL parsed, if its host is allowed with its scheme.
    package func check(_ text: String) -> Result<WebhookURL, Refusal> {
        let url: WebhookURL
        switch WebhookURL.parse(text) {
        case .success(let parsed): url = parsed
        case .failure(let invalid): return .failure(.malformed(invalid.reason))
        }
        let matching = entries.filter { $0.matches(url) }
        guard !matching.isEmpty else {
            // The host is listed with other ports only (an entry without a port would have matched): name the port
            // that differs, not just the host.
            let ports = entries.filter { entry in
                var anyPort = entry
                anyPort.port = nil
                return anyPort.matches(url)
            }.compactMap(\.port)
            guard !ports.isEmpty else { return .failure(.hostNotAllowed(url.host)) }
            return .failure(.portNotAllowed(host: url.host, port: url.port, allowed: Set(ports).sorted()))
        }
        if !url.isHTTPS, !matching.contains(where: \.plainHTTP) { return .failure(.plainHTTPNotAllowed(url.host)) }
        return .success(url)
    }
}
