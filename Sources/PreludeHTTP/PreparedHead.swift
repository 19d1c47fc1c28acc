/// A status and header fields rendered to bytes once, for responses sent many times with the same head (for
/// example one per locale): the engine copies the rendered bytes instead of rendering every field again.
///
/// A response made with ``HTTPResponse/init(head:body:)`` carries the head; changing the response's `status`
/// or `headers` afterwards drops it, so what is sent always matches what the response says.
public final class PreparedHead: Sendable {
    /// The status.
    public let status: HTTPStatus
    /// The fields, in order.
    public let headers: HTTPHeaders
    /// The status line and the field lines, rendered.
    package let rendered: ResponseEncoder.Prefix
    /// ``HTTPHeaders/nameSignature(_:)`` of every field name, or-ed: a name whose bit is not set is not among
    /// the fields (the engine asks for its request-id field on every response, without walking the fields).
    package let nameSignatures: UInt64

    /// Renders `status` and `headers` once.
    public init(status: HTTPStatus = .ok, headers: HTTPHeaders) {
        self.status = status
        self.headers = headers
        rendered = ResponseEncoder.prefix(status: status, headers: headers)
        nameSignatures = headers.nameSignatures
    }
}
