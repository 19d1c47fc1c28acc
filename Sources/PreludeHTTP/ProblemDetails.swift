/// One problem with one field of a request document, addressed by a JSON pointer (RFC 6901).
public struct FieldProblem: Sendable, Equatable {
    /// The JSON pointer of the offending value, e.g. `/features/camera/cadence/minInterval`.
    public var pointer: String
    /// A stable machine-readable code, e.g. `out_of_range`.
    public var code: String
    /// A sentence for people.
    public var detail: String

    /// Creates a field problem.
    public init(pointer: String, code: String, detail: String) {
        self.pointer = pointer
        self.code = code
        self.detail = detail
    }
}

/// An RFC 9457 problem document, thrown by handlers and rendered as `application/problem+json`.
public struct ProblemDetails: HTTPResponseError, Equatable {
    /// A URI identifying the problem type; `about:blank` when the status says it all (RFC 9457 §4.2.1).
    public var type: String
    /// A short summary of the problem type.
    public var title: String
    /// The HTTP status code.
    public var status: HTTPStatus
    /// An explanation of this occurrence.
    public var detail: String?
    /// A URI reference for this occurrence (often the request path).
    public var instance: String?
    /// Every problem with a field, each with its JSON pointer (an extension member, RFC 9457 §3.2).
    public var errors: [FieldProblem]
    /// Extra response headers, e.g. `WWW-Authenticate` or `Allow`.
    public var headers: HTTPHeaders

    /// Creates a problem; the title defaults to the status's reason phrase.
    public init(
        status: HTTPStatus, type: String = "about:blank", title: String? = nil, detail: String? = nil,
        instance: String? = nil, errors: [FieldProblem] = [], headers: HTTPHeaders = HTTPHeaders()
    ) {
        self.type = type
        self.title = title ?? status.reasonPhrase
        self.status = status
        self.detail = detail
        self.instance = instance
        self.errors = errors
        self.headers = headers
    }

    public static func == (lhs: ProblemDetails, rhs: ProblemDetails) -> Bool {
        lhs.type == rhs.type && lhs.title == rhs.title && lhs.status == rhs.status && lhs.detail == rhs.detail
            && lhs.instance == rhs.instance && lhs.errors == rhs.errors
    }

    /// The JSON document (compact, keys in a fixed order).
    public var jsonBytes: [UInt8] {
        var out = "{\"type\":"
        JSONString.append(type, to: &out)
        out += ",\"title\":"
        JSONString.append(title, to: &out)
        out += ",\"status\":\(status.code)"
        if let detail {
            out += ",\"detail\":"
            JSONString.append(detail, to: &out)
        }
        if let instance {
            out += ",\"instance\":"
            JSONString.append(instance, to: &out)
        }
        if !errors.isEmpty {
            out += ",\"errors\":["
            for (i, e) in errors.enumerated() {
                if i > 0 { out += "," }
                out += "{\"pointer\":"
                JSONString.append(e.pointer, to: &out)
                out += ",\"code\":"
                JSONString.append(e.code, to: &out)
                out += ",\"detail\":"
                JSONString.append(e.detail, to: &out)
                out += "}"
            }
            out += "]"
        }
        out += "}"
        return Array(out.utf8)
    }

    /// Renders `application/problem+json` with the status and extra headers.
    public func response() -> HTTPResponse {
        var h = headers
        h.set("Content-Type", "application/problem+json")
        return HTTPResponse(status: status, headers: h, body: jsonBytes)
    }
}

/// Minimal JSON string escaping (RFC 8259 §7) so error rendering needs no Foundation.
enum JSONString {
    static func append(_ s: String, to out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}
