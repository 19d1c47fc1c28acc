import Foundation

/// Sends one HTTP request and returns the whole response; the client's only door to the network.
///
/// ``URLSessionTransport`` is the production implementation. A transport reports a response for every HTTP
/// status (a 503 is a response, not an error) and throws only when no response arrived (DNS, connection refused,
/// timeout), which the client treats as a network error and backs off.
public protocol PreludeTransport: Sendable {
    /// Sends `request`.
    func send(_ request: TransportRequest) async throws -> TransportResponse
}

/// An HTTP request as the client builds it.
public struct TransportRequest: Sendable, Hashable {
    /// `GET` or `POST`.
    public var method: String
    /// The absolute URL.
    public var url: URL
    /// Header fields, names as written.
    public var headers: [String: String]
    /// The body (empty for GET).
    public var body: Data

    /// A request.
    public init(method: String, url: URL, headers: [String: String] = [:], body: Data = Data()) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// An HTTP response: status, header fields (looked up case-insensitively) and the decoded body.
public struct TransportResponse: Sendable, Hashable {
    /// The status code.
    public var status: Int
    /// Header fields with lowercased names.
    public var headers: [String: String]
    /// The body, content coding already removed.
    public var body: Data

    /// A response; header names are lowercased.
    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        var lowered: [String: String] = [:]
        for (name, value) in headers { lowered[name.lowercased()] = value }
        self.headers = lowered
        self.body = body
    }

    /// The value of header `name` (any case).
    public subscript(header name: String) -> String? { headers[name.lowercased()] }
}
