/// Why a request could not be parsed, with the status to answer.
///
/// Every parse error ends the connection: after a framing error the byte stream cannot be trusted
/// (RFC 9112 §6.3; reference policy: never try to resynchronise).
package struct HTTPParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The status to send before closing.
    package let status: HTTPStatus
    /// A short, stable explanation for logs and the problem document's `detail`.
    package let reason: String

    package init(_ status: HTTPStatus, _ reason: String) {
        self.status = status
        self.reason = reason
    }

    package var description: String { "\(status.code) \(reason)" }

    static func bad(_ reason: String) -> HTTPParseError { HTTPParseError(.badRequest, reason) }
}
