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
}
