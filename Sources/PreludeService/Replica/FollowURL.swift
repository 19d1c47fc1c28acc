/// The primary a read replica follows: `http://host[:port][/prefix]` (docs/scaling.md, "Follow mode").
///
/// Plain HTTP only: the replica's client is a small HTTP/1.1 client on POSIX sockets (``PrimaryClient``), so the
/// release image needs no libcurl. Across untrusted networks put a TLS tunnel or a private network between them.
package struct FollowURL: Sendable, Equatable, CustomStringConvertible {
    /// Host name or address (IPv6 without brackets).
    package let host: String
    /// TCP port (80 when the URL names none).
    package let port: Int
    /// Path prefix without a trailing slash ("" for none), prepended to `/v1/admin/...`.
    package let prefix: String

    /// Parses `text`; nil with a reason when it is not an `http://` URL this client can use.
    package static func parse(_ text: String) -> Result<FollowURL, Problem> {
        let lowered = text.lowercased()
        if lowered.hasPrefix("https://") {
            return .failure(
                Problem(
                    reason: "https is not supported by the replica's client; use http:// over a private network or a "
                        + "local TLS tunnel (docs/scaling.md)"))
        }
        guard lowered.hasPrefix("http://") else {
            return .failure(Problem(reason: "'\(text)' is not an http:// URL such as http://primary:8080"))
        }
        var rest = Substring(text.dropFirst("http://".count))
        var prefix = ""
        if let slash = rest.firstIndex(of: "/") {
            prefix = String(rest[slash...])
            rest = rest[..<slash]
            while prefix.hasSuffix("/") { prefix.removeLast() }
        }
        guard !prefix.contains("?"), !prefix.contains("#"), !rest.contains("@") else {
            return .failure(Problem(reason: "'\(text)' must not carry a query, fragment or credentials"))
        }
        var host = String(rest)
        var port = 80
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
        return .success(FollowURL(host: host, port: port, prefix: prefix))
    }

    /// Why a URL was refused.
    package struct Problem: Error, Sendable, Equatable {
        /// A sentence for the configuration error.
        package let reason: String
    }

    /// `http://host:port/prefix`.
    package var description: String {
        "http://" + (host.contains(":") ? "[\(host)]" : host) + ":\(port)" + prefix
    }
}
