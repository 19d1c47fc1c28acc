import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// ``PreludeTransport`` over `URLSession`, with URL caching off: the client keeps its own cache (ETag, body,
/// lifetimes) and must see every 304 itself.
public struct URLSessionTransport: PreludeTransport {
    private let session: URLSession

    /// A transport with its own ephemeral session (no URL cache, no cookies); `timeout` bounds each request.
    public init(timeout: TimeInterval = 15) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.timeoutIntervalForRequest = timeout
        session = URLSession(configuration: configuration)
    }

    /// A transport over an existing session (it should not cache: the client sends `If-None-Match` itself).
    public init(session: URLSession) {
        self.session = session
    }

    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        urlRequest.cachePolicy = .reloadIgnoringLocalCacheData
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        if !request.body.isEmpty { urlRequest.httpBody = request.body }
        let (data, response) = try await session.data(for: urlRequest)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        return TransportResponse(status: http.statusCode, headers: headers, body: data)
    }
}
