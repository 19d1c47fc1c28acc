extension ResponseEncoder {
    /// What goes out for a handler's response to one request: the status, the rendered prefix (status line and
    /// handler fields: rendered once per prepared head, else now) and the body. A negotiated response is
    /// negotiated here, once, against the request's fields (coding, 304), straight to its prepared head and body.
    package struct Outgoing {
        /// The status sent.
        package var status: HTTPStatus
        /// The status line and the response's fields, rendered.
        package var prefix: Prefix
        /// The body (before HEAD, 204 and 304 drop it: ``plan(status:isHead:bodyCount:handlerContentLength:)``).
        package var body: [UInt8]
        /// The log fields of the answer negotiation produced instead (a 412), when the response had none.
        package var logFields: [String: String]?
    }

    /// ``Outgoing`` for `response` answering a request with `method`, `acceptEncoding` and `ifNoneMatch` (the
    /// request's combined values): one exhaustive switch over the response's kinds. The server's connections and
    /// the in-process test transport both send what this returns.
    package static func outgoing(
        _ response: HTTPResponse, method: HTTPMethod, acceptEncoding: String?, ifNoneMatch: String?,
        requestIDHeader: String?, signature: UInt64
    ) -> Outgoing {
        switch response.content {
        case .negotiated(let prepared):
            switch prepared.negotiate(method: method, acceptEncoding: acceptEncoding, ifNoneMatch: ifNoneMatch) {
            case .prepared(let head, let body):
                return Outgoing(
                    status: head.status,
                    prefix: prefix(head, requestIDHeader: requestIDHeader, signature: signature), body: body,
                    logFields: nil)
            case .response(let answer):
                return Outgoing(
                    status: answer.status, prefix: prefix(answer, requestIDHeader: requestIDHeader),
                    body: answer.body, logFields: answer.logFields)
            }
        case .rendered(let head, let body):
            return Outgoing(
                status: head.status, prefix: prefix(head, requestIDHeader: requestIDHeader, signature: signature),
                body: body, logFields: nil)
        case .fields(let status, let headers, let body):
            return Outgoing(
                status: status, prefix: prefix(status: status, headers: headers, requestIDHeader: requestIDHeader),
                body: body, logFields: nil)
        }
    }
}
