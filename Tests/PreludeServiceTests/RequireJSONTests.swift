import Foundation
import PreludeHTTP
import Testing

@testable import PreludeService

@Suite struct RequireJSONTests {
    /// The rule as first written with Foundation: the byte-wise check must give the same answer for every header.
    private static func reference(_ header: String?) -> Bool {
        let type = (header ?? "").split(separator: ";").first.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
        guard let type else { return false }
        return type == "application/json" || type.hasSuffix("+json")
    }

    private static func accepts(_ header: String?) -> Bool {
        var headers = HTTPHeaders()
        if let header { headers.add("Content-Type", header) }
        do {
            try EventRoutes.requireJSON(HTTPRequest(method: .post, path: "/", headers: headers))
            return true
        } catch {
            #expect(error.status == .unsupportedMediaType)
            return false
        }
    }

    @Test(
        arguments: [
            nil, "", ";", ";;", " ", "application/json", "Application/JSON", "application/json; charset=utf-8",
            " application/json ;charset=utf-8", "\tapplication/json\t", ";application/json", ";; application/json",
            " ;application/json", "application/json2", "application/jsonx; a=b", "xapplication/json",
            "application/problem+json", "application/merge-patch+JSON; x", "+json", "+JSON", "json", "text/plain",
            "text/plain; a=application/json", "application/ json", "application /json", "application/vnd.a+json ;",
            "application/json\u{A0}", "\u{2003}application/json", "application/json;\u{E9}", "t\u{E9}xt/x+json",
            "\u{A0};application/json", "application/\u{301}json",
        ] as [String?])
    func byteWiseCheckMatchesTheUnicodeRule(header: String?) {
        #expect(Self.accepts(header) == Self.reference(header), "Content-Type: \(String(describing: header))")
    }

    @Test func acceptsJSONTypesAndRefusesOthers() {
        #expect(Self.accepts("application/json"))
        #expect(Self.accepts(" APPLICATION/JSON ; charset=utf-8"))
        #expect(Self.accepts("application/problem+json"))
        #expect(!Self.accepts(nil))
        #expect(!Self.accepts("text/plain"))
        #expect(!Self.accepts("application/jsonp"))
    }

    /// One rule for public and admin bodies: the charset, when sent, must be UTF-8 (RFC 8259 §8.1); the accepted
    /// types are the route's.
    @Test(arguments: [JSONMediaType.Accepted.anyJSON, .only(["application/json"])])
    func charsetOtherThanUTF8IsRefusedByEveryRoute(accepting: JSONMediaType.Accepted) {
        for header in [
            "application/json; charset=utf-8", "application/json;charset=UTF-8", #"application/json; charset="utf-8""#,
            "application/json; charset=utf8", "application/json; version=2",
        ] {
            #expect(JSONMediaType.verdict(header, accepting: accepting) == .accepted, "\(header)")
        }
        #expect(
            JSONMediaType.verdict("application/json; charset=latin1", accepting: accepting) == .otherCharset("latin1"))
        #expect(
            JSONMediaType.verdict(#"Application/JSON ; Charset="ISO-8859-1""#, accepting: accepting)
                == .otherCharset("ISO-8859-1"))
        #expect(JSONMediaType.verdict(nil, accepting: accepting) == .missing)
        #expect(JSONMediaType.verdict("text/plain; charset=utf-8", accepting: accepting) == .otherType)
        #expect(!Self.accepts("application/json; charset=latin1"))
    }

    @Test func aRouteTakingOnlyListedTypesRefusesOtherJSONTypes() {
        let patch = JSONMediaType.Accepted.only(["application/merge-patch+json"])
        #expect(JSONMediaType.verdict("application/merge-patch+json", accepting: patch) == .accepted)
        #expect(JSONMediaType.verdict("application/json", accepting: patch) == .otherType)
        #expect(JSONMediaType.verdict("application/problem+json", accepting: .anyJSON) == .accepted)
    }
}
