/// The one rule for the `Content-Type` of a JSON request body, used by every route that reads one (admin writes,
/// events, decide, replication): anything else is refused with 415 (RFC 9110 §15.5.16) before the body is read.
///
/// The rule: the first non-empty `;`-separated piece of the field, without surrounding whitespace and compared
/// case-insensitively (RFC 9110 §8.3.1), is a media type the route takes (``Accepted``); and a `charset`
/// parameter, when sent, names UTF-8 (`utf-8` or `utf8`, quoted or not, any case), because JSON exchanged between
/// systems is UTF-8 (RFC 8259 §8.1): a body declared `charset=latin1` would be read as something it is not, so it is
/// refused rather than misread. Other parameters are ignored.
public enum JSONMediaType {
    /// The JSON media types a route takes.
    public enum Accepted: Sendable, Equatable {
        /// `application/json` or any type with the structured syntax suffix `+json` (RFC 6839 §3.1).
        case anyJSON
        /// Exactly these media types (lower-case `type/subtype`), e.g. `application/merge-patch+json` for a PATCH.
        case only([String])

        /// The types to name in a refusal.
        var names: [String] {
            switch self {
            case .anyJSON: ["application/json"]
            case .only(let types): types
            }
        }
    }

    /// What the rule says of a `Content-Type` field value.
    public enum Verdict: Sendable, Equatable {
        /// A JSON type the route takes, UTF-8.
        case accepted
        /// No `Content-Type` field.
        case missing
        /// A media type the route does not take.
        case otherType
        /// An accepted type whose `charset` parameter is not UTF-8 (the charset as sent, unquoted).
        case otherCharset(String)
    }

    /// The verdict on `contentType` (nil: the field is absent) for a route taking `accepted`.
    public static func verdict(_ contentType: String?, accepting accepted: Accepted) -> Verdict {
        guard let contentType else { return .missing }
        var pieces = contentType.split(separator: ";")[...]
        guard let type = pieces.popFirst().map({ trimmed($0).lowercased() }), takes(type, accepted) else {
            return .otherType
        }
        for piece in pieces {
            let parameter = trimmed(piece)
            guard parameter.utf8.count >= 8, parameter.lowercased().hasPrefix("charset=") else { continue }
            var charset = parameter.dropFirst(8)[...]
            while charset.first == "\"" { charset = charset.dropFirst() }
            while charset.last == "\"" { charset = charset.dropLast() }
            let name = charset.lowercased()
            guard name == "utf-8" || name == "utf8" else { return .otherCharset(String(charset)) }
        }
        return .accepted
    }

    /// Refuses with a 415 problem unless `request`'s `Content-Type` is accepted; `headers` go on the problem (a
    /// route advertises what it takes: `Accept-Post`, or `Accept-Patch` for PATCH, RFC 5789 §2.2).
    public static func require(
        _ request: HTTPRequest, accepting accepted: Accepted, headers: HTTPHeaders = HTTPHeaders()
    ) throws(ProblemDetails) {
        let contentType = request.headers["Content-Type"]
        let detail: String
        switch verdict(contentType, accepting: accepted) {
        case .accepted:
            return
        case .missing:
            let names = accepted.names
            detail =
                "send Content-Type: \(names.joined(separator: " or ")) with the body (curl: -H 'Content-Type: \(names[0])')"
        case .otherType:
            detail =
                "Content-Type '\(contentType ?? "")' is not accepted here; use \(accepted.names.joined(separator: " or "))"
        case .otherCharset(let charset):
            detail =
                "JSON must be UTF-8, not \(charset) (RFC 8259 §8.1): send it as UTF-8 with charset=utf-8 or no charset"
        }
        throw ProblemDetails(status: .unsupportedMediaType, detail: detail, headers: headers)
    }

    private static func takes(_ type: String, _ accepted: Accepted) -> Bool {
        switch accepted {
        case .anyJSON: type == "application/json" || type.hasSuffix("+json")
        case .only(let types): types.contains(type)
        }
    }

    /// `piece` without leading and trailing whitespace: horizontal tab and the Unicode space separators (SP in
    /// ASCII; what `CharacterSet.whitespaces` holds), character by character.
    private static func trimmed(_ piece: Substring) -> Substring {
        func isWhitespace(_ character: Character) -> Bool {
            character.unicodeScalars.allSatisfy { $0 == "\t" || $0.properties.generalCategory == .spaceSeparator }
        }
        guard let first = piece.firstIndex(where: { !isWhitespace($0) }) else { return "" }
        let last = piece.lastIndex(where: { !isWhitespace($0) })!
        return piece[first...last]
    }
}
