import PreludeHTTPClient

/// A replica's two requests to its primary (the change feed and forwarded events) over the product's outbound
/// client (``HTTPClient``, libcurl): the primary's URL prefix, the replica's bearer token and its `User-Agent` added
/// to each, certificates verified against the system's bundle or `tlsCAFile` for an `https://` primary.
///
/// ``abort()`` shuts the socket of a request in progress down, so stopping the replica never waits for a held poll.
package final class PrimaryClient: Sendable {
    /// A response.
    package typealias Response = HTTPClientResponse

    /// Why an exchange failed.
    package struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        package let description: String
    }

    /// The primary.
    package let url: FollowURL
    private let token: RedactedSecret
    private let client: HTTPClient
    /// The largest response accepted (a change feed of many large apps fits).
    package static let maxResponseSize = 64 << 20

    /// A client for `url` authenticating with `token`, trusting the CAs in `caFile` (PEM) instead of the system's
    /// when given.
    package init(url: FollowURL, token: RedactedSecret, caFile: String? = nil) {
        self.url = url
        self.token = token
        client = HTTPClient(
            configuration: HTTPClientConfiguration(
                maxResponseSize: Self.maxResponseSize, caFile: caFile,
                userAgent: "prelude-replica/\(ServiceInfo.version)"))
    }

    /// Sends one request and returns the response; `timeout` bounds the whole exchange.
    package func send(
        _ method: String, _ path: String, headers: [(String, String)] = [], body: [UInt8] = [], timeout: Double
    ) throws -> Response {
        try client.send(
            method, url: url.description + path, headers: headers + [("Authorization", "Bearer \(token.value)")],
            body: body, timeout: timeout)
    }

    /// Aborts the request in progress, if any, and makes every later one fail at once.
    package func abort() { client.abort() }
}
