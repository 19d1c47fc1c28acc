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

        /// Compresses `identity` once, with tags the caller derived (a revision's tags, say), hashing nothing.
        public init(identity: [UInt8], identityETag: ETag, gzipETag: ETag) {
            self.identity = identity
            self.gzip = Gzip.compress(identity)
            self.identityETag = identityETag
            self.gzipETag = gzipETag
        }
    }
}
