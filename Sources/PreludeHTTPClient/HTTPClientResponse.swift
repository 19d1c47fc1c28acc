/// A response received by ``HTTPClient``: the final one (never an interim 1xx, nor a redirect that was followed).
package struct HTTPClientResponse: Sendable, Equatable {
    /// The status code.
    package var status: Int
    /// Header fields by lowercased name; a repeated field's values joined with ", " (RFC 9110 §5.3).
    package var headers: [String: String]
    /// The body, exactly as received (no content coding is asked for or undone).
    package var body: [UInt8]

    /// A response with these parts.
    package init(status: Int, headers: [String: String] = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The field named `name` (any case), or nil.
    package func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// The body as UTF-8 text (invalid bytes replaced).
    package var text: String { String(decoding: body, as: UTF8.self) }
}
