/// The primary a read replica follows: `http[s]://host[:port][/prefix]` (docs/scaling.md, "Follow mode").
///
/// Over `https://` the primary's certificate is verified against the system's CA bundle, or the `tlsCAFile`
/// setting's CAs (a private CA); TLS usually ends at a proxy in front of the primary (docs/scaling.md).
package struct FollowURL: Sendable, Equatable, CustomStringConvertible {
    /// Whether the replica speaks TLS to the primary.
    package let isSecure: Bool
    /// Host name or address (IPv6 without brackets).
    package let host: String
    /// TCP port (80, or 443 over https, when the URL names none).
    package let port: Int
    /// Path prefix without a trailing slash ("" for none), prepended to `/v1/admin/...`.
    package let prefix: String

    /// A URL from its parts.
    package init(isSecure: Bool = false, host: String, port: Int, prefix: String) {
        self.isSecure = isSecure
        self.host = host
        self.port = port
        self.prefix = prefix
    }

    /// Parses `text`; nil with a reason when it is not an `http://` or `https://` URL this client can use.
    package static func parse(_ text: String) -> Result<FollowURL, Problem> {
        let lowered = text.lowercased()
        let isSecure = lowered.hasPrefix("https://")
        guard isSecure || lowered.hasPrefix("http://") else {
            return .failure(Problem(reason: "'\(text)' is not an http:// or https:// URL such as http://primary:8080"))
        }
        var rest = Substring(text.dropFirst(isSecure ? "https://".count : "http://".count))
        var prefix = ""
        if let slash = rest.firstIndex(of: "/") {
            prefix = String(rest[slash...])
            rest = rest[..<slash]
            while prefix.hasSuffix("/") { prefix.removeLast() }
        }
        guard !prefix.contains("?"), !prefix.contains("#"), !rest.contains("@") else {
            return .failure(Problem(reason: "'\(text)' must not carry a query, fragment or credentials"))
        }
        guard prefix.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            return .failure(Problem(reason: "'\(text)' has a path that is not printable ASCII without spaces"))
        }
        var host = String(rest)
        var port = isSecure ? 443 : 80
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return .failure(Problem(reason: "'\(text)': bad IPv6")) }
            let after = host[host.index(after: close)...]
            if after.hasPrefix(":") {
                guard let number = Int(after.dropFirst()), (1...65535).contains(number) else {
                    return .failure(Problem(reason: "'\(text)' has an invalid port"))
                }
                port = number
            } else if !after.isEmpty {
                return .failure(Problem(reason: "'\(text)' has an invalid port"))
            }
            host = String(host[host.index(after: host.startIndex)..<close])
        } else if let colon = host.lastIndex(of: ":") {
            guard let number = Int(host[host.index(after: colon)...]), (1...65535).contains(number) else {
                return .failure(Problem(reason: "'\(text)' has an invalid port"))
            }
            port = number
            host = String(host[..<colon])
        }
        guard !host.isEmpty,
            host.unicodeScalars.allSatisfy({
                $0.isASCII && ($0.properties.isAlphabetic || "0123456789.-:_".unicodeScalars.contains($0))
            })
        else {
            return .failure(Problem(reason: "'\(text)' has no valid host"))
        }
        return .success(FollowURL(isSecure: isSecure, host: host, port: port, prefix: prefix))
    }

    /// Why a URL was refused.
    package struct Problem: Error, Sendable, Equatable {
        /// A sentence for the configuration error.
        package let reason: String
    }

    /// `http[s]://host:port/prefix`.
    package var description: String {
        (isSecure ? "https://" : "http://") + (host.contains(":") ? "[\(host)]" : host) + ":\(port)" + prefix
    }
}
