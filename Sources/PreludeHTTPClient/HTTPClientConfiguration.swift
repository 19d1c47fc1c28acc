/// How an ``HTTPClient`` connects: time and size bounds, redirects and the certificate authorities it trusts.
///
/// The defaults are the safe ones: certificate verification on (peer and host name) against the system's CA
/// bundle, no redirect followed, no proxy from the environment, every exchange bounded in time and size.
package struct HTTPClientConfiguration: Sendable, Equatable {
    /// Seconds one exchange may take from the first connect to the last body byte, unless a request sets its own.
    package var timeout: Double
    /// Seconds allowed for resolving, connecting and the TLS handshake together (never more than the timeout).
    package var connectTimeout: Double
    /// The largest response body accepted, in bytes; a larger one fails with ``HTTPClientError/Kind/tooLarge``.
    package var maxResponseSize: Int
    /// A PEM file of certificate authorities trusted instead of the system's bundle (a private CA); nil uses the
    /// system's. Verification itself cannot be turned off.
    package var caFile: String?
    /// Whether a 3xx with `Location` is followed (at most ``maxRedirects`` times, http and https only); off by
    /// default, so a 3xx is returned as the response.
    package var followRedirects: Bool
    /// The most redirects followed when ``followRedirects`` is on.
    package var maxRedirects: Int
    /// The `User-Agent` sent unless a request names its own.
    package var userAgent: String

    /// A configuration; every parameter has the safe default described on its property.
    package init(
        timeout: Double = 30, connectTimeout: Double = 10, maxResponseSize: Int = 16 << 20, caFile: String? = nil,
        followRedirects: Bool = false, maxRedirects: Int = 5, userAgent: String = "prelude"
    ) {
        precondition(timeout > 0 && connectTimeout > 0, "HTTPClient timeouts must be positive")
        precondition(maxResponseSize >= 0 && maxRedirects >= 0, "HTTPClient limits must not be negative")
        self.timeout = timeout
        self.connectTimeout = connectTimeout
        self.maxResponseSize = maxResponseSize
        self.caFile = caFile
        self.followRedirects = followRedirects
        self.maxRedirects = maxRedirects
        self.userAgent = userAgent
    }
}
