/// The parsed head of a request: request line and header fields, plus the framing facts derived from them.
package struct RequestHead: Sendable {
    /// How the body is delimited (RFC 9112 §6.3).
    package enum Framing: Sendable, Equatable {
        /// No body.
        case none
        /// Exactly this many bytes follow.
        case length(Int)
        /// The chunked transfer coding (RFC 9112 §7.1).
        case chunked
    }

    /// The request method.
    package var method: HTTPMethod
    /// The percent-decoded path.
    package var path: String
    /// The raw query, without `?`.
    package var rawQuery: String
    /// True for `OPTIONS *` (asterisk-form, RFC 9112 §3.2.4).
    package var isAsterisk: Bool
    /// The minor version: 0 for HTTP/1.0, 1 for HTTP/1.1.
    package var minorVersion: Int
    /// The header fields in arrival order.
    package var headers: HTTPHeaders
    /// How the body is delimited.
    package var framing: Framing
    /// Whether the client allows the connection to stay open after this exchange.
    package var keepAlive: Bool
    /// True when the client sent `Expect: 100-continue` on HTTP/1.1.
    package var expectsContinue: Bool
    /// `headers.combinedValue(for: "Accept-Encoding")`, gathered while the fields were parsed.
    package var acceptEncoding: String?
    /// `headers.combinedValue(for: "If-None-Match")`, gathered while the fields were parsed.
    package var ifNoneMatch: String?

    /// Decoded query parameters, decoded from ``rawQuery`` when read (the decoder has checked that it decodes; a
    /// handler that reads the raw query pays for no strings).
    package var query: [(name: String, value: String)] {
        RawQuery(rawQuery).pairs
    }
}
