import Foundation
import PreludeHTTP

/// Public API requests over either back-end of ``TestTransport`` (a socket, or the server's code in process): any
/// method, headers and body, binary-safe responses, `Connection: close` per request.
struct PublicClient {
    struct Response {
        let status: Int
        let headers: [(name: String, value: String)]
        let body: [UInt8]

        /// The first value of a header (case-insensitive).
        subscript(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }

        var text: String { String(decoding: body, as: UTF8.self) }

        /// The body parsed with JSONSerialization.
        func json() throws -> [String: Any] {
            guard let object = try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else {
                throw Failure.malformed("not a JSON object: \(text)")
            }
            return object
        }

        /// The `pointer`s of a problem document's `errors`.
        func problemPointers() throws -> [String] {
            ((try json()["errors"] as? [[String: Any]]) ?? []).compactMap { $0["pointer"] as? String }
        }
    }

    typealias Failure = TestTransport.Failure

    /// How requests reach the server.
    let transport: TestTransport

    /// A client over a socket to 127.0.0.1:`port`.
    init(port: Int) { transport = .live(port: port) }

    /// A client of `kind` to `server`, listening on `port`.
    init(_ kind: TestTransport.Kind, server: HTTPServer, port: Int) {
        transport = TestTransport(kind, server: server, port: port)
    }

    func get(_ target: String, headers: [(String, String)] = []) throws -> Response {
        try send("GET", target, headers: headers)
    }

    func post(_ target: String, json: String, headers: [(String, String)] = []) throws -> Response {
        try send("POST", target, headers: [("Content-Type", "application/json")] + headers, body: Array(json.utf8))
    }

    func send(_ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8] = []) throws
        -> Response
    {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "POST" { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        let response = try transport.exchange(Array(head.utf8) + body)
        return Response(status: response.status, headers: response.fields, body: response.bytes)
    }
}
