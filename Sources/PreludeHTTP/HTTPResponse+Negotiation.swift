extension HTTPResponse {
    /// A representation prepared in two codings, with the ETag of each (strong tags differ per coding,
    /// RFC 9110 §8.8.3).
    public struct Prepared: Sendable {
        /// The identity bytes.
        public var identity: [UInt8]
        /// The same content, gzip-compressed.
        public var gzip: [UInt8]
        /// The identity bytes' tag.
        public var identityETag: ETag
        /// The gzip bytes' tag.
        public var gzipETag: ETag

        /// Compresses and tags `identity` once.
        public init(identity: [UInt8]) {
            self.identity = identity
            self.gzip = Gzip.compress(identity)
            self.identityETag = ETag.strong(for: identity)
            self.gzipETag = ETag.strong(for: gzip)
        }
    }

    /// Serves a prepared representation to one request, as ``PreparedResponse`` does: gzip when
    /// `Accept-Encoding` prefers it, `Vary: Accept-Encoding` always (RFC 9110 §12.5.5), the matching ETag, and 304
    /// when `If-None-Match` matches (RFC 9110 §13.1.2). `headers` (e.g. `Cache-Control`) go on both the 200 and
    /// the 304. A handler serving the same bytes repeatedly should keep a ``PreparedResponse`` instead.
    public static func negotiated(
        _ request: HTTPRequest, _ prepared: Prepared, contentType: String, headers: HTTPHeaders = HTTPHeaders()
    ) -> HTTPResponse {
        PreparedResponse(prepared, contentType: contentType, headers: headers).response(to: request)
    }
}
