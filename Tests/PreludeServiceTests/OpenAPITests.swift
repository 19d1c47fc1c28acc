import Foundation
import PreludeHTTP
import Testing

@testable import PreludeService

@Suite struct OpenAPITests {
    let fixture = ServiceFixture()
    static let documentPath = ServiceFixture.repositoryRoot + "/openapi.yaml"

    /// (method, path) of every operation in openapi.yaml: path keys are the two-space-indented lines under
    /// `paths:` and operations the four-space-indented method keys under them.
    static func documentedOperations() throws -> Set<String> {
        let text = try String(contentsOfFile: documentPath, encoding: .utf8)
        var operations: Set<String> = []
        var inPaths = false
        var path: String?
        let methods: Set<String> = ["get", "put", "post", "delete", "patch", "head", "options"]
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if !line.hasPrefix(" ") && !line.isEmpty {
                inPaths = line == "paths:"
                continue
            }
            guard inPaths else { continue }
            if line.hasPrefix("  /") && line.hasSuffix(":") && !line.hasPrefix("   ") {
                path = String(line.dropFirst(2).dropLast())
            } else if line.hasPrefix("    ") && !line.hasPrefix("     "), let path {
                let key = line.dropFirst(4).split(separator: ":").first.map(String.init) ?? ""
                if methods.contains(key) { operations.insert("\(key.uppercased()) \(path)") }
            }
        }
        return operations
    }

    @Test func everyRouteIsDocumentedAndEveryDocumentedOperationIsARoute() throws {
        let service = try PreludeService.start(
            configuration: ServiceFixture.make(fixture), logger: Logger(level: .error))
        defer { service.stop() }
        let routes = Set(service.server.router.routes.map { "\($0.method.rawValue) \($0.pattern)" })
        let documented = try Self.documentedOperations()
        #expect(documented.count > 20, "the parser found the operations")
        #expect(routes.subtracting(documented).sorted() == [], "routes missing from openapi.yaml")
        #expect(documented.subtracting(routes).sorted() == [], "documented operations the server does not have")
    }

    @Test func servesTheRepositoryDocumentWithETagGzipAndNotModified() throws {
        let service = try PreludeService.start(
            configuration: ServiceFixture.make(fixture), logger: Logger(level: .error))
        defer { service.stop() }
        let file = try Data(contentsOf: URL(fileURLWithPath: Self.documentPath))

        let plain = try RequestLogTests.Client.exchange(
            port: service.port, "GET /openapi.yaml HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        #expect(plain.status == 200)
        #expect(plain.headers["content-type"] == "application/yaml")
        #expect(plain.body == Array(file))
        let etag = try #require(plain.headers["etag"])

        let gzip = try RequestLogTests.Client.exchange(
            port: service.port,
            "GET /openapi.yaml HTTP/1.1\r\nHost: t\r\nAccept-Encoding: gzip\r\nConnection: close\r\n\r\n")
        #expect(gzip.headers["content-encoding"] == "gzip")
        #expect(try Gzip.decompress(gzip.body, maxSize: 1 << 22) == Array(file))

        let cached = try RequestLogTests.Client.exchange(
            port: service.port,
            "GET /openapi.yaml HTTP/1.1\r\nHost: t\r\nIf-None-Match: \(etag)\r\nConnection: close\r\n\r\n")
        #expect(cached.status == 304)
        #expect(cached.body.isEmpty)
    }

    @Test func aMissingDocumentIsA404ProblemNotAStartFailure() throws {
        var router = Router()
        ObservabilityRoutes.register(
            on: &router, observability: Observability(logger: Logger(level: .error)), openAPI: nil)
        guard case .found(let route, _) = router.match(method: .get, path: "/openapi.yaml") else {
            Issue.record("no route")
            return
        }
        let error = #expect(throws: ProblemDetails.self) {
            try route.handler(HTTPRequest(method: .get, path: "/openapi.yaml"))
        }
        #expect(error?.status == .notFound)
    }

    @Test func documentDeclaresOpenAPI31AndTheBearerScheme() throws {
        let text = try String(contentsOfFile: Self.documentPath, encoding: .utf8)
        #expect(text.hasPrefix("openapi: 3.1."))
        #expect(text.contains("scheme: bearer"))
        #expect(text.contains("application/problem+json"))
    }
}
