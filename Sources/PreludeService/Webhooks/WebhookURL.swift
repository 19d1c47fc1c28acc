/// A webhook URL as this service accepts it: `https://host[:port][/path][?query]` (or `http://`), no user
/// information, no fragment, only characters RFC 3986 §2 allows, at most 2,048 of them. Parsed here, strictly, so
/// that the host the allowlist checks is the host libcurl connects to.
package struct WebhookURL: Sendable, Equatable {
    /// The whole URL as given.
    package var text: String
    /// Whether the scheme is `https`.
    package var isHTTPS: Bool
    /// The lowercased host name, IPv4 address, or `[IPv6]` literal.
    package var host: String
    /// The port, explicit or the scheme's default.
    package var port: Int

    /// The longest URL accepted.
    package static let maxLength = 2048

    /// Why a text is not a webhook URL.
    package struct Invalid: Error, Sendable, Equatable {
        /// A sentence for the problem's detail.
        package var reason: String
    }

    /// Parses `text`, or says why it is not a webhook URL.
    package static func parse(_ text: String) -> Result<WebhookURL, Invalid> {
        guard text.utf8.count <= maxLength else {
            return .failure(Invalid(reason: "the URL is longer than \(maxLength) characters"))
        }
        // RFC 3986 §2.2 and §2.3: unreserved, reserved and `%`; anything else (spaces, `\`, controls, non-ASCII)
        // is refused rather than guessed at, since parsers disagree on it.
        let allowed = Set(
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#[]@!$&'()*+,;=%".utf8)
        guard text.utf8.allSatisfy(allowed.contains) else {
            return .failure(
                Invalid(reason: "the URL may hold only the characters RFC 3986 allows (percent-encode the others)"))
        }
        let lowered = text.lowercased()
        let isHTTPS: Bool
        if lowered.hasPrefix("https://") {
            isHTTPS = true
        } else if lowered.hasPrefix("http://") {
            isHTTPS = false
        } else {
            return .failure(
                Invalid(reason: "the URL must start with https:// (or http:// for a host allowed plain HTTP)"))
        }
        let afterScheme = text.dropFirst(isHTTPS ? 8 : 7)
        guard !afterScheme.contains("#") else {
            return .failure(Invalid(reason: "the URL must not have a fragment (#…)"))
        }
        let end = afterScheme.firstIndex { $0 == "/" || $0 == "?" } ?? afterScheme.endIndex
        let authority = afterScheme[..<end]
        guard !authority.contains("@") else {
            return .failure(
                Invalid(reason: "the URL must not carry user information (user:password@); the signature authenticates")
            )
        }
        guard let parsed = self.authority(Substring(authority.lowercased())) else {
            return .failure(Invalid(reason: "the URL's host and port are not valid"))
        }
        return .success(
            WebhookURL(text: text, isHTTPS: isHTTPS, host: parsed.host, port: parsed.port ?? (isHTTPS ? 443 : 80)))
    }

    /// `host[:port]` (host lowercased already): a DNS name or IPv4 address of letters, digits, `-` and `.`, or an
    /// IPv6 literal in brackets; the port 1–65535. Nil when malformed.
    static func authority(_ text: Substring) -> (host: String, port: Int?)? {
        var host: Substring
        var portText: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            host = text[...close]
            let rest = text[text.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { return nil }
                portText = rest.dropFirst()
            }
            let inner = host.dropFirst().dropLast()
            guard !inner.isEmpty, inner.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else { return nil }
        } else {
            if let colon = text.firstIndex(of: ":") {
                host = text[..<colon]
                portText = text[text.index(after: colon)...]
            } else {
                host = text
            }
            let labels = host.split(separator: ".", omittingEmptySubsequences: false)
            guard !host.isEmpty, host.count <= 253,
                labels.allSatisfy({ label in
                    !label.isEmpty && label.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
                        && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
                })
            else { return nil }
        }
        var port: Int?
        if let portText {
            guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy({ $0 >= "0" && $0 <= "9" }),
                let number = Int(portText), (1...65535).contains(number)
            else { return nil }
            port = number
        }
        return (String(host), port)
    }
}
