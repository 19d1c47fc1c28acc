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

    /// Serves a prepared representation: gzip when `Accept-Encoding` prefers it, `Vary: Accept-Encoding`
    /// always (RFC 9110 §12.5.5), the matching ETag, and 304 when `If-None-Match` matches (RFC 9110 §13.1.2).
    /// `headers` (e.g. `Cache-Control`) go on both the 200 and the 304.
    public static func negotiated(
        _ request: HTTPRequest, _ prepared: Prepared, contentType: String, headers: HTTPHeaders = HTTPHeaders()
    ) -> HTTPResponse {
        let gzip = AcceptEncoding.prefersGzip(
            request.headers.values(for: "Accept-Encoding").joined(separator: ", ").nilIfEmpty)
        let etag = gzip ? prepared.gzipETag : prepared.identityETag
        var h = headers
        h.set("Vary", "Accept-Encoding")
        h.set("ETag", etag.headerValue)
        if let notModified = ConditionalRequest.notModified(request, etag: etag, headers: h) { return notModified }
        h.set("Content-Type", contentType)
        if gzip { h.set("Content-Encoding", "gzip") }
        return HTTPResponse(status: .ok, headers: h, body: gzip ? prepared.gzip : prepared.identity)
    }
}

extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
