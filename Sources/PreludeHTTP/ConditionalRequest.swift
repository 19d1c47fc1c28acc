/// Conditional-request evaluation for handlers (RFC 9110 §13.2).
public enum ConditionalRequest {
    /// For reads: when `If-None-Match` matches `etag`, the 304 (GET/HEAD) or 412 (other methods) to send
    /// instead of the body (RFC 9110 §13.1.2). `headers` should hold what a 200 would carry among
    /// `ETag`, `Cache-Control`, `Vary`, `Content-Location`, `Expires` (RFC 9110 §15.4.5); `ETag` is added.
    public static func notModified(_ request: HTTPRequest, etag: ETag, headers: HTTPHeaders = HTTPHeaders())
        -> HTTPResponse?
    {
        guard let value = request.headers["If-None-Match"],
            etag.matchesIfNoneMatch(combined(request, "If-None-Match") ?? value)
        else { return nil }
        var h = headers
        h.set("ETag", etag.headerValue)
        if request.method == .get || request.method == .head {
            return HTTPResponse(status: .notModified, headers: h)
        }
        return ProblemDetails(status: .preconditionFailed, detail: "the resource matches If-None-Match").response()
    }

    /// For writes: checks `If-Match` against the current tag (nil when the resource does not exist).
    /// Throws 428 when the header is required and missing (RFC 6585 §3), 412 when it does not match
    /// (RFC 9110 §13.1.1, strong comparison). The problem's `detail` names the current ETag.
    public static func requireIfMatch(_ request: HTTPRequest, current: ETag?, required: Bool = true)
        throws(ProblemDetails)
    {
        guard let value = combined(request, "If-Match") else {
            if required {
                throw ProblemDetails(
                    status: .preconditionRequired, type: "about:blank",
                    detail: "this write needs If-Match with the current ETag"
                        + (current.map { " (\($0.headerValue))" } ?? ""))
            }
            return
        }
        guard let current, current.matchesIfMatch(value) else {
            var headers = HTTPHeaders()
            if let current { headers.set("ETag", current.headerValue) }
            throw ProblemDetails(
                status: .preconditionFailed,
                detail: "If-Match does not match the current ETag"
                    + (current.map { " (\($0.headerValue))" } ?? " (no current representation)"),
                headers: headers)
        }
    }

    /// All field lines of a list header joined with commas (RFC 9110 §5.3).
    private static func combined(_ request: HTTPRequest, _ name: String) -> String? {
        let values = request.headers.values(for: name)
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }
}
