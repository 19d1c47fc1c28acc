import Dispatch
import PreludeHTTP
import Synchronization
import Testing

/// Deferred handlers (`Router.addDeferred`): the response comes later from another thread; meanwhile the
/// connection waits and other connections are served.
@Suite struct DeferredHandlerTests {
    /// Requests parked by `/park`, answered when the test says so.
    final class Parking: Sendable {
        let waiting = Mutex<[(body: [UInt8], completion: HTTPCompletion)]>([])
        let arrived = DispatchSemaphore(value: 0)

        func answerAll(_ make: ([UInt8]) -> Result<HTTPResponse, any Error>) {
            let parked = waiting.withLock { list in
                defer { list.removeAll() }
                return list
            }
            for (body, completion) in parked { completion(make(body)) }
        }
    }

    struct Refusal: Error {}

    private func start(_ parking: Parking, inline: Bool = false) throws -> TestServer {
        try TestServer.make(routes: { router in
            router.addDeferred(.post, "/park", options: RouteOptions(runsInline: inline)) { request, completion in
                parking.waiting.withLock { $0.append((request.body, completion)) }
                parking.arrived.signal()
            }
            router.addDeferred(.post, "/refuse") { request, _ in
                throw ProblemDetails(status: .unprocessableContent, detail: "refused \(request.body.count) bytes")
            }
            router.addDeferred(.get, "/later/{id}") { request, completion in
                let id = request.pathParameters["id"] ?? ""
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(5)) {
                    completion(.success(.json(Array(#"{"id":"\#(id)"}"#.utf8))))
                }
            }
        })
    }

    @Test(arguments: [false, true])
    func answersWhenCompletedFromAnotherThreadWhileOtherConnectionsAreServed(inline: Bool) throws {
        let parking = Parking()
        let t = try start(parking, inline: inline)
        defer { t.stop() }
        let parked = try t.client()
        try parked.send("POST /park HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc")
        parking.arrived.wait()
        // Another connection is answered while the first one's response is pending.
        let other = try t.client()
        try other.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try other.readResponse().status == 200)
        DispatchQueue.global().async {
            parking.answerAll { body in .success(HTTPResponse(status: .accepted, body: body.reversed())) }
        }
        let response = try parked.readResponse()
        #expect(response.status == 202)
        #expect(response.text == "cba")
        // The connection stays usable for the next request.
        try parked.send("GET /later/7 HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try parked.readResponse().text == #"{"id":"7"}"#)
    }

    @Test func pipelinedRequestsWaitForTheDeferredAnswerAndKeepTheirOrder() throws {
        let parking = Parking()
        let t = try start(parking)
        defer { t.stop() }
        let c = try t.client()
        try c.send(
            "POST /park HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nhi" + "GET /later/2 HTTP/1.1\r\nHost: x\r\n\r\n"
        )
        parking.arrived.wait()
        parking.answerAll { body in .success(HTTPResponse(status: .ok, body: body)) }
        #expect(try c.readResponse().text == "hi")
        #expect(try c.readResponse().text == #"{"id":"2"}"#)
    }

    @Test func errorsThrownOrCompletedRenderAsProblems() throws {
        let parking = Parking()
        let t = try start(parking)
        defer { t.stop() }
        let c = try t.client()
        try c.send("POST /refuse HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\nabcd")
        let refused = try c.readResponse()
        #expect(refused.status == 422)
        #expect(refused.header("Content-Type") == "application/problem+json")
        #expect(refused.text.contains("refused 4 bytes"))

        try c.send("POST /park HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\n\r\nx")
        parking.arrived.wait()
        parking.answerAll { _ in .failure(Refusal()) }
        let failed = try c.readResponse()
        #expect(failed.status == 500)
        #expect(failed.header("Content-Type") == "application/problem+json")
        #expect(!failed.text.contains("Refusal"))
    }

    @Test func theSynchronousAdapterWaitsForTheCompletion() throws {
        var router = Router()
        router.addDeferred(.get, "/later") { _, completion in
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(5)) {
                completion(.success(HTTPResponse(status: .created)))
            }
        }
        guard case .found(let route, _) = router.match(method: .get, path: "/later") else {
            Issue.record("route not found")
            return
        }
        #expect(route.deferredHandler != nil)
        #expect(try route.handler(HTTPRequest(method: .get, path: "/later")).status == .created)
    }
}
