import PreludeHTTP

/// The content coding of an event batch (RFC 9110 §8.4): identity, or one gzip member that clients use to send
/// large batches. The decoded body is held to the same limit as an identity body, so a small gzip bomb is a 413,
/// never a large allocation.
package enum EventBodyCoding {
    /// The body without its content coding. Throws 415 (with `Accept-Encoding: gzip`, RFC 7694 §3) for any other
    /// coding or a list of codings, 400 for a body that is not one valid gzip member, and 413 when the decoded body
    /// would exceed `maxSize`.
    package static func decodedBody(_ request: HTTPRequest, maxSize: Int) throws(ProblemDetails) -> [UInt8] {
        guard let coding = request.headers["Content-Encoding"] else { return request.body }
        switch coding.trimmingASCIISpaces().lowercased() {
        case "", "identity":
            return request.body
        case "gzip", "x-gzip":
            do {
                return try Gzip.decompress(request.body, maxSize: maxSize)
            } catch let failure as Gzip.Failure where failure.exceededLimit {
                throw ProblemDetails(
                    status: .contentTooLarge,
                    detail: "the gzip body decodes to more than \(maxSize) bytes; send smaller batches")
            } catch {
                throw ProblemDetails(
                    status: .badRequest,
                    detail: "the body is not one valid gzip member (Content-Encoding: gzip): \(error)")
            }
        default:
            throw ProblemDetails(
                status: .unsupportedMediaType,
                detail: "Content-Encoding \(coding) is not supported; send gzip or no content coding",
                headers: ["Accept-Encoding": "gzip"])
        }
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    fileprivate func trimmingASCIISpaces() -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return self[first...last]
    }
}
