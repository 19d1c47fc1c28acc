/// A representation prepared once, when its content changes, and negotiated per request by the engine.
///
/// It holds the identity and gzip bodies with their strong tags (``HTTPResponse/Prepared``) and, for each
/// coding, the 200 and the 304 with their heads rendered (``PreparedHead``). A handler returns it with
/// ``HTTPResponse/init(_:)``; the engine then picks the coding from `Accept-Encoding` (RFC 9110 §12.5.3) and
/// answers 304 when `If-None-Match` matches that coding's tag (RFC 9110 §13.1.2), without building any field.
///
/// Fields of the 200, in order: `headers`, `ETag`, `Content-Type`, `Content-Encoding` (gzip only), `Vary`
/// (RFC 9110 §12.5.5: the bytes depend on `Accept-Encoding`). The 304 carries `headers`, `ETag` and `Vary`
/// (RFC 9110 §15.4.5: what the 200 would carry among the validator and cache fields).
public final class PreparedResponse: Sendable {
    /// The bodies and their tags.
    public let representations: HTTPResponse.Prepared
    private let identity: Variant
    private let gzip: Variant

    /// One coding's answers (a class: choosing one per request retains one reference, not each field).
    private final class Variant: Sendable {
        let etag: ETag
        let ok: HTTPResponse
        let notModified: HTTPResponse
        let okHead: PreparedHead
        let notModifiedHead: PreparedHead
        let body: [UInt8]

        init(etag: ETag, okHead: PreparedHead, notModifiedHead: PreparedHead, body: [UInt8]) {
            self.etag = etag
            ok = HTTPResponse(head: okHead, body: body)
            notModified = HTTPResponse(head: notModifiedHead)
            self.okHead = okHead
            self.notModifiedHead = notModifiedHead
            self.body = body
        }
    }

    /// What the engine sends for a request: a prepared head with its body, or (412) a response.
    package enum Negotiated {
        /// The coding's 200 (with its body) or 304 (with none).
        case prepared(PreparedHead, body: [UInt8])
        /// Any other answer.
        case response(HTTPResponse)
    }

    /// Prepares `representations` served as `contentType`, with `headers` (for example `Cache-Control`) on
    /// both the 200 and the 304 and `vary` naming what the bytes depend on (`Accept-Encoding` at least).
    ///
    /// `headers` must not hold the fields this type sets (`ETag`, `Content-Type`, `Content-Encoding`, `Vary`).
    public init(
        _ representations: HTTPResponse.Prepared, contentType: String, headers: HTTPHeaders = HTTPHeaders(),
        vary: String = "Accept-Encoding"
    ) {
        for name in ["ETag", "Content-Type", "Content-Encoding", "Vary"] {
            precondition(!headers.contains(name), "PreparedResponse sets \(name) itself")
        }
        self.representations = representations
        func variant(body: [UInt8], etag: ETag, gzip: Bool) -> Variant {
            var fields = headers
            fields.add("ETag", etag.headerValue)
            var notModified = fields
            notModified.add("Vary", vary)
            fields.add("Content-Type", contentType)
            if gzip { fields.add("Content-Encoding", "gzip") }
            fields.add("Vary", vary)
            let okHead = PreparedHead(status: .ok, headers: fields)
            let notModifiedHead = PreparedHead(status: .notModified, headers: notModified)
            return Variant(etag: etag, okHead: okHead, notModifiedHead: notModifiedHead, body: body)
        }
        identity = variant(body: representations.identity, etag: representations.identityETag, gzip: false)
        gzip = variant(body: representations.gzip, etag: representations.gzipETag, gzip: true)
    }

    /// The 200 in identity coding: what a request without `Accept-Encoding` or conditions gets.
    public var identityResponse: HTTPResponse { identity.ok }

    /// The answer to `request` (what the engine sends for it).
    public func response(to request: HTTPRequest) -> HTTPResponse {
        response(method: request.method, headers: request.headers)
    }

    /// The answer to a request with `method` and `headers`: the coding's 200, its 304 when `If-None-Match`
    /// matches on GET or HEAD, or 412 when it matches on another method (RFC 9110 §13.1.2).
    package func response(method: HTTPMethod, headers: HTTPHeaders) -> HTTPResponse {
        let variant = choose(headers.combinedValue(for: "Accept-Encoding"))
        guard Self.ifNoneMatch(headers.combinedValue(for: "If-None-Match"), matches: variant.etag) else {
            return variant.ok
        }
        return method == .get || method == .head ? variant.notModified : Self.preconditionFailed()
    }

    /// ``response(method:headers:)`` as the engine uses it, with the request's combined `Accept-Encoding` and
    /// `If-None-Match` values (gathered by the decoder): the chosen head and body, without a response value.
    package func negotiate(method: HTTPMethod, acceptEncoding: String?, ifNoneMatch: String?) -> Negotiated {
        let variant = choose(acceptEncoding)
        guard Self.ifNoneMatch(ifNoneMatch, matches: variant.etag) else {
            return .prepared(variant.okHead, body: variant.body)
        }
        if method == .get || method == .head { return .prepared(variant.notModifiedHead, body: []) }
        return .response(Self.preconditionFailed())
    }

    /// The coding's variant: gzip when `Accept-Encoding` prefers it (RFC 9110 §12.5.3).
    private func choose(_ acceptEncoding: String?) -> Variant {
        AcceptEncoding.prefersGzip(acceptEncoding) ? gzip : identity
    }

    /// Whether `If-None-Match` is present and matches `etag` (RFC 9110 §13.1.2).
    private static func ifNoneMatch(_ value: String?, matches etag: ETag) -> Bool {
        guard let value else { return false }
        return etag.matchesIfNoneMatch(value)
    }

    private static func preconditionFailed() -> HTTPResponse {
        ProblemDetails(status: .preconditionFailed, detail: "the resource matches If-None-Match").response()
    }
}
