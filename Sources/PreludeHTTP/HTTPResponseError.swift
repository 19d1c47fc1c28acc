/// An error that knows how to render itself as an HTTP response.
///
/// Handlers throw these; the server renders them. Any other error becomes a 500
/// problem without internal details.
public protocol HTTPResponseError: Error, Sendable {
    /// The response to send for this error.
    func response() -> HTTPResponse
}
