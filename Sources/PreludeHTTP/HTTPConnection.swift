import Dispatch

#if canImport(Glibc)
    import Glibc
#endif

/// One client connection: reads, decodes one request at a time, runs it, writes the response, repeats.
///
/// The I/O shell of a ``ConnectionStateMachine``: this class makes the syscalls, runs the decoder and the
/// handler and owns the buffers; every protocol decision (phases, deadlines, keep-alive, lingering, 408) is the
/// machine's, fed with the loop's `now`.
///
/// `@unchecked Sendable` invariant: all state is read and written only on the owning loop's thread. Worker
/// threads hold a reference only to post `.completed` back to that loop; they never touch the fields.
///
/// `@exclusivity(unchecked)` on the mutable fields: they belong to one thread and no method overlaps two
/// accesses to the same field (a buffer is never mutated inside a closure that reads it), so the runtime's
/// per-access exclusivity bookkeeping (about 20 accesses and 1,500 instructions per request) is skipped. Debug
/// builds of the test suite were run with the checks on before they were turned off here.
final class HTTPConnection: @unchecked Sendable {
    let fd: Int32
    let remoteAddress: String
    /// The owning loop. `unowned(unsafe)`: the loop keeps this connection in its table until it closes and is
    /// itself kept by the server until every loop thread ended; worker threads that outlive a close hold
    /// their own strong reference to the loop. Saves a reference-count round trip on every access.
    unowned(unsafe) let loop: EventLoop
    /// The protocol state.
    @exclusivity(unchecked) private(set) var machine: ConnectionStateMachine
    /// When the current phase's timeout fires (monotonic ms).
    var deadline: Int64 { machine.deadline }

    @exclusivity(unchecked) private var decoder: RequestDecoder
    @exclusivity(unchecked) private var input: [UInt8] = []
    @exclusivity(unchecked) private var inputStart = 0
    /// A head whose body is still being read.
    @exclusivity(unchecked) private var pendingHead: RequestHead?
    /// What the response to the current request needs of it; nil between exchanges.
    @exclusivity(unchecked) private var exchange: Exchange?
    @exclusivity(unchecked) private var decision: Responder.Decision?

    @exclusivity(unchecked) private var output: [UInt8] = []
    @exclusivity(unchecked) private var outputOffset = 0
    @exclusivity(unchecked) private var outputBody: [UInt8] = []
    @exclusivity(unchecked) private var outputBodyOffset = 0
    @exclusivity(unchecked) private var interest: UInt32 = Epoll.readable

    // The current request, for `X-Request-ID` and `onRequestCompleted`.
    /// Monotonic nanoseconds of the request's first byte; 0 when not measured (no observer) or not started.
    @exclusivity(unchecked) private var requestStart: UInt64 = 0
    /// The id echoed in `X-Request-ID`; nil until known (a refused head gets one generated at `send`).
    @exclusivity(unchecked) private var requestID: RequestIdentifier?
    /// The pattern of the route whose handler produced the response; nil for the engine's own answers.
    @exclusivity(unchecked) private var handlerRoute: String?

    /// The request facts the response depends on (negotiation, HEAD, persistence), kept apart from the head so
    /// that the head itself is handed to the handler without being stored and copied again.
    private struct Exchange {
        var method: HTTPMethod
        var keepAlive: Bool
        /// The combined `Accept-Encoding` and `If-None-Match`, for negotiating a prepared response.
        var acceptEncoding: String?
        var ifNoneMatch: String?
    }

    init(fd: Int32, remoteAddress: String, loop: EventLoop) {
        self.fd = fd
        self.remoteAddress = remoteAddress
        self.loop = loop
        self.decoder = RequestDecoder(limits: loop.core.parserLimits)
        self.machine = ConnectionStateMachine(
            timeouts: loop.core.timeouts, maxRequests: loop.core.configuration.maxRequestsPerConnection,
            now: loop.now)
    }

    // MARK: Events

    func handle(events: UInt32) {
        if events & (Epoll.error | Epoll.hangup) != 0 {
            // Both directions are gone (or the socket failed): nobody can read a response.
            close()
            return
        }
        if events & Epoll.writable != 0 {
            switch machine.writable() {
            case .flush:
                if flush() == .readNext { processInput() }
            case .ignore:
                break
            }
        }
        if events & Epoll.readable != 0 {
            switch machine.readable() {
            case .read: readable()
            case .drain: drainForLinger()
            case .ignore: break
            }
        }
    }

    private func readable() {
        let scratch = loop.scratch
        var received = false
        while true {
            let n = recv(fd, scratch.baseAddress, scratch.count, 0)
            if n > 0 {
                input.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[0..<n]))
                received = true
                if n < scratch.count { break }
                // Bound what one connection may buffer in one go; the decoder's limits apply as it parses.
                if input.count - inputStart > 256 * 1024 { break }
            } else if n == 0 {
                machine.peerClosed()
                break
            } else {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { break }
                close()
                return
            }
        }
        if received { machine.received(now: loop.now) }
        processInput()
    }

    /// Decodes and serves as many buffered requests as possible, in order.
    private func processInput() {
        while case .decode(let startsRequest) = machine.nextInput(buffered: inputStart < input.count) {
            if startsRequest && requestStart == 0 && loop.core.requestObserver != nil {
                requestStart = SystemInfo.monotonicNanoseconds()
            }
            let event: RequestDecoder.Event
            do {
                let consumed: Int
                (event, consumed) = try input.withUnsafeBufferPointer { buffer throws(HTTPParseError) in
                    try decoder.next(UnsafeBufferPointer(rebasing: buffer[inputStart...]))
                }
                inputStart += consumed
            } catch {
                fail(error)
                return
            }
            // Consumed: the head is moved out of the event, not copied (and released twice).
            switch consume event {
            case .needMore:
                machine.needMore(partial: inputStart < input.count, now: loop.now)
                compactInput()
                closeIfInputEnded()
                return
            case .head(let parsed):
                if let name = loop.core.requestIDHeader {
                    // A client's id is kept when it is safe to log and echo; otherwise we make one.
                    if let sent = parsed.headers.value(for: name, signature: loop.core.requestIDSignature),
                        RequestIDGenerator.isAcceptable(sent)
                    {
                        requestID = .given(sent)
                    } else {
                        requestID = .generated(loop.requestIDs.next())
                    }
                }
                let decided = loop.core.responder.decide(parsed)
                do {
                    try decoder.beginBody(maxSize: loop.core.responder.maxBodySize(for: decided))
                } catch {
                    fail(error)
                    return
                }
                exchange = Exchange(
                    method: parsed.method, keepAlive: parsed.keepAlive, acceptEncoding: parsed.acceptEncoding,
                    ifNoneMatch: parsed.ifNoneMatch)
                decision = decided
                // RFC 9110 §10.1.1: send 100 Continue before reading the body, unless some of it is already here.
                let continues = parsed.expectsContinue && inputStart == input.count
                switch machine.headReceived(expectsContinue: continues, now: loop.now) {
                case .sendContinue:
                    if sendInterimContinue() == .closed { return }
                case .none:
                    break
                }
                // No body (most requests): what the decoder's next call would return, without the round trip. The
                // input is compacted when the loop ends (right after an inline handler, or at once for the others).
                if decoder.takeEmptyBody() {
                    switch machine.bodyReceived() {
                    case .dispatch: dispatch(head: consume parsed, decision: decided, body: [])
                    }
                } else {
                    pendingHead = parsed
                }
            case .body(let body):
                guard let head = pendingHead.take(), let decision else { preconditionFailure("body without head") }
                compactInput()
                switch machine.bodyReceived() {
                case .dispatch: dispatch(head: consume head, decision: decision, body: body)
                }
            }
        }
        compactInput()
        closeIfInputEnded()
    }

    /// After EOF from the client, a connection with no complete request left has nothing more to answer; one
    /// whose request is being answered is watched again (no more reads), answers what it sent, then closes.
    private func closeIfInputEnded() {
        switch machine.inputEnded() {
        case .close: close()
        case .watch: updateInterest()
        case .none: break
        }
    }

    private func compactInput() {
        if inputStart == input.count {
            if !input.isEmpty {
                input.removeAll(keepingCapacity: input.capacity <= 64 * 1024)
                inputStart = 0
            }
        } else if inputStart > 16 * 1024 && inputStart * 2 > input.count {
            input.removeSubrange(0..<inputStart)
            inputStart = 0
        }
    }

    private func dispatch(head: consuming RequestHead, decision: Responder.Decision, body: [UInt8]) {
        if case .fixed(_, close: true) = decision { machine.closesAfterResponse() }
        if case .route(let route, _) = decision { handlerRoute = route.pattern }
        let requestID = self.requestID ?? .none
        if case .route(let route, let parameters) = decision, let deferred = route.deferredHandler {
            updateInterest()
            let head = copy head
            let loop = self.loop
            let remoteAddress = self.remoteAddress
            let start: @Sendable () -> Void = { [self] in
                Responder.start(
                    route, deferred: deferred, parameters: parameters, head: head, body: body,
                    remoteAddress: remoteAddress, requestID: requestID,
                    eventHandler: loop.core.configuration.eventHandler
                ) { response in loop.post(.completed(self, response)) }
            }
            if route.options.runsInline { start() } else { DispatchQueue.global().async(execute: start) }
            return
        }
        if loop.core.responder.runsInline(decision) {
            let response = Responder.respond(
                decision, head: consume head, body: body, remoteAddress: remoteAddress, requestID: requestID,
                eventHandler: loop.core.configuration.eventHandler)
            send(response)
            return
        }
        updateInterest()
        let head = copy head
        let loop = self.loop
        let remoteAddress = self.remoteAddress
        DispatchQueue.global().async { [self] in
            let response = Responder.respond(
                decision, head: head, body: body, remoteAddress: remoteAddress, requestID: requestID,
                eventHandler: loop.core.configuration.eventHandler)
            loop.post(.completed(self, response))
        }
    }

    /// Called on the loop thread when a worker finished.
    func handlerFinished(_ response: HTTPResponse) {
        switch machine.handlerFinished() {
        case .send:
            if send(response) == .readNext { processInput() }
        case .drop:
            break
        }
    }

    // MARK: Writing

    /// Sends the final response; returns what its write came to.
    @discardableResult
    private func send(_ handlerResponse: HTTPResponse) -> FlushOutcome {
        guard let head = exchange.take() else { preconditionFailure("response without request") }
        let core = loop.core
        // What goes out (``ResponseEncoder/outgoing(_:method:acceptEncoding:ifNoneMatch:requestIDHeader:signature:)``):
        // a negotiated response is negotiated here, once, against the request's fields (coding, 304).
        let outgoing = ResponseEncoder.outgoing(
            handlerResponse, method: head.method, acceptEncoding: head.acceptEncoding, ifNoneMatch: head.ifNoneMatch,
            requestIDHeader: core.requestIDHeader, signature: core.requestIDSignature)
        let status = outgoing.status
        let prefix = outgoing.prefix
        let body = outgoing.body
        var logFields = handlerResponse.logFields
        if logFields.isEmpty, let answered = outgoing.logFields { logFields = answered }
        // A handler may ask to end the connection with `Connection: close` (e.g. after refusing a client).
        let start = machine.finalResponseStarted(
            clientKeepsAlive: head.keepAlive, handlerCloses: prefix.handlerCloses, stopping: loop.stopping,
            now: loop.now)
        let keepAlive = start.keepAlive
        let interimPending = start.interimPending
        let plan = ResponseEncoder.plan(
            status: status, isHead: head.method == .head, bodyCount: body.count,
            handlerContentLength: prefix.handlerContentLength)
        if interimPending {
            // The 100 Continue line is still partly unsent: keep its rest in front of the final response.
            output.removeSubrange(0..<outputOffset)
        } else {
            output.removeAll(keepingCapacity: true)
        }
        outputOffset = 0
        var idField: (name: String, value: RequestIdentifier)?
        if let name = core.requestIDHeader {
            idField = (name, requestID ?? .generated(loop.requestIDs.next()))
        }
        ResponseEncoder.encodeHead(
            prefix: prefix, serverLine: core.serverLine, plan: plan, keepAlive: keepAlive,
            date: loop.date.headerLine, requestID: idField,
            into: &output)
        outputBody = plan.sendBody ? body : []
        outputBodyOffset = 0
        let method = head.method
        let route = handlerRoute
        let started = requestStart
        let bytes = output.count + outputBody.count
        var captures = PathParameters()
        if case .route(_, let parameters)? = decision { captures = parameters }
        self.decision = nil
        requestID = nil
        handlerRoute = nil
        requestStart = 0
        // Before the write, so a client that has read the response can rely on it being counted and logged.
        if let observer = core.requestObserver {
            let now = SystemInfo.monotonicNanoseconds()
            observer(
                CompletedRequest(
                    method: method, route: route, status: status.code,
                    durationNanoseconds: started == 0 ? 0 : now &- started, bytesSent: bytes,
                    identifier: idField?.value ?? .none, remoteAddress: remoteAddress, captures: captures,
                    logFields: logFields))
        }
        return flush()
    }

    private static let continueLine: [UInt8] = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    private func sendInterimContinue() -> FlushOutcome {
        output.removeAll(keepingCapacity: true)
        output.append(contentsOf: Self.continueLine)
        outputOffset = 0
        outputBody = []
        outputBodyOffset = 0
        return flush()
    }

    /// What a flush came to.
    private enum FlushOutcome {
        /// Everything was written and the connection waits for (or decodes) the next request.
        case readNext
        /// Everything was written and the exchange goes on otherwise (reading a body, lingering).
        case wrote
        /// Output is pending: the socket is watched for writability.
        case pending
        /// The socket was closed.
        case closed
    }

    /// Writes pending output.
    @discardableResult
    private func flush() -> FlushOutcome {
        while outputOffset < output.count || outputBodyOffset < outputBody.count {
            let written = output.withUnsafeBytes { headBytes in
                outputBody.withUnsafeBytes { bodyBytes in
                    withUnsafeTemporaryAllocation(of: iovec.self, capacity: 2) { iov -> Int in
                        var count = 0
                        if outputOffset < headBytes.count {
                            iov[count] = iovec(
                                iov_base: UnsafeMutableRawPointer(mutating: headBytes.baseAddress! + outputOffset),
                                iov_len: headBytes.count - outputOffset)
                            count += 1
                        }
                        if outputBodyOffset < bodyBytes.count {
                            iov[count] = iovec(
                                iov_base: UnsafeMutableRawPointer(mutating: bodyBytes.baseAddress! + outputBodyOffset),
                                iov_len: bodyBytes.count - outputBodyOffset)
                            count += 1
                        }
                        var message = msghdr()
                        message.msg_iov = iov.baseAddress
                        message.msg_iovlen = count
                        // MSG_NOSIGNAL: a vanished peer gives EPIPE, never SIGPIPE.
                        return sendmsg(fd, &message, Int32(MSG_NOSIGNAL))
                    }
                }
            }
            if written < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK {
                    // Slow reader: wait for EPOLLOUT instead of holding a thread.
                    updateInterest()
                    return .pending
                }
                close()
                return .closed
            }
            machine.wroteSome(now: loop.now)
            var remaining = written
            let headLeft = output.count - outputOffset
            if headLeft > 0 {
                let step = min(headLeft, remaining)
                outputOffset += step
                remaining -= step
            }
            outputBodyOffset += remaining
        }
        switch machine.writeFinished(inputConsumed: inputStart == input.count, now: loop.now) {
        case .readNext:
            outputBody = []
            updateInterest()
            return .readNext
        case .readBody:
            // The interim response went out; the final one's body is not there yet.
            updateInterest()
            return .wrote
        case .linger:
            outputBody = []
            // Half-close our side so the client reads the response before any reset; drain what it still sends.
            shutdown(fd, Int32(SHUT_WR))
            input = []
            inputStart = 0
            updateInterest()
            return .wrote
        case .close:
            outputBody = []
            close()
            return .closed
        }
    }

    // MARK: Errors, timeouts, closing

    /// Answers a protocol error and closes (reference policy: never resynchronise after a framing error).
    private func fail(_ error: HTTPParseError) {
        if exchange == nil {
            // Errors in the head: the response still needs a request context for the encoder.
            exchange = Exchange(method: .get, keepAlive: false)
        }
        // The id the answer will carry, drawn now so the event's log line names it too.
        if requestID == nil, loop.core.requestIDHeader != nil { requestID = .generated(loop.requestIDs.next()) }
        loop.core.configuration.eventHandler?(
            .protocolError(
                status: error.status.code, reason: error.reason, remoteAddress: remoteAddress,
                requestID: requestID?.text ?? ""))
        machine.failed()
        handlerRoute = nil
        send(ProblemDetails(status: error.status, detail: error.reason).response())
    }

    /// The loop's sweep: acts on a passed deadline.
    func tick(now: Int64) {
        switch machine.tick(now: now) {
        case .close:
            close()
        case .sendRequestTimeout:
            exchange = nil
            pendingHead = nil
            fail(HTTPParseError(.requestTimeout, "the request was not received in time"))
        case .none:
            break
        }
    }

    /// Graceful stop: idle connections close now; the others finish the current exchange, then close.
    func beginShutdown() {
        switch machine.beginShutdown() {
        case .close: close()
        case .none: break
        }
    }

    private func drainForLinger() {
        let scratch = loop.scratch
        while true {
            let n = recv(fd, scratch.baseAddress, scratch.count, 0)
            if n > 0 { continue }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return }
            close()
            return
        }
    }

    private func updateInterest() {
        let wanted = machine.interest
        let events = (wanted.readable ? Epoll.readable : 0) | (wanted.writable ? Epoll.writable : 0)
        if events != interest {
            interest = events
            if !loop.setInterest(fd, events) { close() }
        }
    }

    /// Closes the socket at once.
    func close() {
        guard machine.closed() else { return }
        loop.remove(fd)
        _ = Glibc.close(fd)
        input = []
        output = []
        outputBody = []
    }
}
