/// Why an ``HTTPClient`` exchange produced no response.
package struct HTTPClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure, for callers that react differently (retry, give up, report a setting).
    package enum Kind: Sendable, Equatable {
        /// The request itself is unusable: a malformed URL, a scheme other than http or https, a header with CR or
        /// LF in it.
        case invalidRequest
        /// The host name did not resolve.
        case resolve
        /// No connection could be made (refused, unreachable).
        case connect
        /// The TLS handshake failed: certificate not trusted or for another name, or the CA file unreadable.
        case tls
        /// The exchange took longer than its timeout.
        case timedOut
        /// The response body exceeded ``HTTPClientConfiguration/maxResponseSize``.
        case tooLarge
        /// ``HTTPClient/abort()`` ended it.
        case aborted
        /// libcurl could not be loaded (`libcurl.so.4` missing: Debian's `libcurl4` package), so nothing was sent.
        case unavailable
        /// Anything else: the connection dropped mid-response, a malformed response, ...
        case transfer
    }

    /// The kind of failure.
    package let kind: Kind
    /// The URL asked for.
    package let url: String
    /// libcurl's explanation (its error buffer, else `curl_easy_strerror`), or ours.
    package let detail: String

    /// An error of `kind` for `url`.
    package init(_ kind: Kind, url: String, detail: String) {
        self.kind = kind
        self.url = url
        self.detail = detail
    }

    /// `GET https://host/path: certificate verification failed: ...`.
    package var description: String { "\(url): \(detail)" }
}
