/// A request's id as the engine holds it: the client's text, or a generated number whose text is made only when
/// something reads it (a handler, the request log). The engine writes a generated id's digits straight into the
/// response head: most requests never need it as a `String` (making and freeing one, and retaining it at every
/// copy of a request or report, cost about 500 instructions per policy fetch, callgrind).
package enum RequestIdentifier: Sendable, Equatable, ExpressibleByStringLiteral {
    /// No id (the server sends none).
    case none
    /// The client's id, kept because it is acceptable (``RequestIDGenerator/isAcceptable(_:)``).
    case given(String)
    /// An id the server made (``RequestIDGenerator/next()``).
    case generated(UInt64)

    /// An id given as text; the empty text is no id.
    package init(_ text: String) {
        self = text.isEmpty ? .none : .given(text)
    }

    /// A literal id; the empty literal is no id.
    package init(stringLiteral value: String) {
        self.init(value)
    }

    /// The id as text: empty for none.
    package var text: String {
        switch self {
        case .none: ""
        case .given(let text): text
        case .generated(let value): RequestIDGenerator.text(value)
        }
    }

    /// Appends the id's text to `out`.
    package func append(to out: inout [UInt8]) {
        switch self {
        case .none: break
        case .given(var text): text.withUTF8 { out.append(contentsOf: $0) }
        case .generated(let value): RequestIDGenerator.append(value, to: &out)
        }
    }
}
