/// The protocol decisions of one connection — phases, deadlines, keep-alive, lingering and the 408 — with no
/// I/O and no clock of its own.
///
/// ``HTTPConnection`` is its I/O shell: it reads, runs the ``RequestDecoder``, writes and closes, reports what
/// happened through the methods here and carries out the action each returns (one action type per event, switched
/// on exhaustively; the shell reads no phase or flag to decide, only ``deadline`` for the loop's timer and
/// ``interest`` for epoll). Time enters only as the `now`
/// argument (monotonic milliseconds), so tests drive every timeout by passing times, without waiting.
///
/// Phases: `idle` (waiting for a request's first byte) → `head` (part of a head arrived; absolute header
/// deadline) → `body` (idle timeout per read, capped by an absolute body deadline) → `processing` (the handler
/// runs; no deadline, nothing read) → `writing` (write timeout, restarted by progress) → `idle` again, or
/// `lingering` (our side shut down after a final response; unread input drained until EOF or the linger
/// deadline) → `closed`.
package struct ConnectionStateMachine {
    /// Where the exchange stands.
    package enum Phase: Equatable, Sendable {
        /// Waiting for the first byte of a request (new or kept-alive connection).
        case idle
        /// Part of a head has arrived; the absolute header deadline runs.
        case head
        /// Reading the body.
        case body
        /// The handler runs; nothing is read (pipelined requests wait, RFC 9112 §9.3.2).
        case processing
        /// The response is being written.
        case writing
        /// Our side is shut down after a final response; unread input is drained until EOF or the deadline.
        case lingering
        /// The socket is closed.
        case closed
    }

    // One action type per event: the shell switches exhaustively on what the event it reported requires, and never
    // reads the machine's fields to decide (Hummingbird's `HTTPConnectionStateHandler` is the model).

    /// What the shell does when the socket is writable.
    package enum WritableAction: Equatable, Sendable {
        /// Write pending output (a response, or an interim `100 Continue`).
        case flush
        /// Nothing is being written: ignore the event.
        case ignore
    }

    /// What the shell does when the socket is readable.
    package enum ReadableAction: Equatable, Sendable {
        /// Read and decode.
        case read
        /// Lingering after a final response: drain and discard until EOF.
        case drain
        /// Reads wait (a handler runs or a response is written; pipelined requests stay in the socket).
        case ignore
    }

    /// What the shell does next while it serves buffered input.
    package enum InputAction: Equatable, Sendable {
        /// Run the decoder on the buffered bytes; `startsRequest`: these are the first bytes of a new request.
        case decode(startsRequest: Bool)
        /// Stop: reads wait, or nothing is buffered between requests.
        case stop
    }

    /// What a decoded head requires.
    package enum HeadAction: Equatable, Sendable {
        /// Read the body (or dispatch it at once when there is none).
        case none
        /// Send `100 Continue` before reading the body (RFC 9110 §10.1.1).
        case sendContinue
    }

    /// What a complete body requires.
    package enum BodyAction: Equatable, Sendable {
        /// Run the handler for the complete request.
        case dispatch
    }

    /// What the end of input processing requires.
    package enum InputEndedAction: Equatable, Sendable {
        /// Nothing.
        case none
        /// Close the socket at once: the client sent EOF and no complete request is left to answer.
        case close
        /// The client sent EOF while a request is answered: watch the socket again (no more reads), answer, close.
        case watch
    }

    /// What a handler's finished response requires.
    package enum HandlerFinishedAction: Equatable, Sendable {
        /// Send it.
        case send
        /// The connection moved on (it timed out or closed meanwhile): drop it.
        case drop
    }

    /// What starting the final response decided.
    package struct ResponseStart: Equatable, Sendable {
        /// Whether the connection stays open after this response.
        package var keepAlive: Bool
        /// An interim `100 Continue` is still partly unsent and goes out first.
        package var interimPending: Bool
    }

    /// What finishing a write requires.
    package enum WriteFinishedAction: Equatable, Sendable {
        /// The response was written and the connection stays: decode and serve the next buffered request.
        case readNext
        /// The interim response was written: keep reading the body.
        case readBody
        /// Shut our side down and drain what the client still sends until EOF or the linger deadline.
        case linger
        /// Close the socket at once.
        case close
    }

    /// What a clock tick requires.
    package enum TickAction: Equatable, Sendable {
        /// Nothing (no deadline passed).
        case none
        /// Close the socket at once.
        case close
        /// Answer 408 and close (RFC 9110 §15.5.9): the request did not arrive in time.
        case sendRequestTimeout
    }

    /// What a graceful stop requires.
    package enum ShutdownAction: Equatable, Sendable {
        /// Finish the current exchange, then close.
        case none
        /// Close at once (idle).
        case close
    }

    /// The timeouts, in milliseconds.
    package struct Timeouts: Sendable {
        /// From a head's first byte to its end.
        package var header: Int64
        /// Between two reads of a body.
        package var bodyIdle: Int64
        /// From the end of the head to the end of the body.
        package var body: Int64
        /// Without write progress.
        package var write: Int64
        /// Between requests on a kept-alive connection.
        package var keepAlive: Int64
        /// For draining after a final response.
        package var linger: Int64

        /// Timeouts in milliseconds.
        package init(header: Int64, bodyIdle: Int64, body: Int64, write: Int64, keepAlive: Int64, linger: Int64) {
            self.header = header
            self.bodyIdle = bodyIdle
            self.body = body
            self.write = write
            self.keepAlive = keepAlive
            self.linger = linger
        }
    }

    /// The current phase.
    package private(set) var phase = Phase.idle
    /// When the current phase's timeout fires (monotonic ms); `.max` when none runs.
    package private(set) var deadline: Int64
    /// An interim `100 Continue` is being written (reading goes on meanwhile).
    package private(set) var writingInterim = false
    /// The client shut down its sending side (EOF read).
    package private(set) var peerClosedInput = false
    /// Requests whose head was received on this connection.
    package private(set) var requestCount = 0
    /// The connection ends after the current response.
    package private(set) var closeAfterResponse = false

    private let timeouts: Timeouts
    private let maxRequests: Int
    private var bodyDeadline: Int64 = .max
    /// The response answers an error that may have cut the request short: drain before closing.
    private var drainBeforeClose = false

    /// A machine for a connection accepted at `now`, allowing `maxRequests` requests on it.
    package init(timeouts: Timeouts, maxRequests: Int, now: Int64) {
        self.timeouts = timeouts
        self.maxRequests = maxRequests
        deadline = now + timeouts.keepAlive
    }

    // MARK: Reading

    /// Whether reads are taken now (otherwise they wait, e.g. pipelined requests while a handler runs).
    package var isReading: Bool { phase == .idle || phase == .head || phase == .body }

    /// The socket is writable.
    package func writable() -> WritableAction {
        switch phase {
        case .writing: .flush
        // An interim `100 Continue` may still be unsent while the body is read or the handler runs.
        case .idle, .head, .body, .processing, .lingering, .closed: writingInterim ? .flush : .ignore
        }
    }

    /// The socket is readable.
    package func readable() -> ReadableAction {
        switch phase {
        case .idle, .head, .body: .read
        case .lingering: .drain
        case .processing, .writing, .closed: .ignore
        }
    }

    /// The shell is about to serve buffered input; `buffered`: unread request bytes are buffered.
    package func nextInput(buffered: Bool) -> InputAction {
        switch phase {
        case .idle: buffered ? .decode(startsRequest: true) : .stop
        case .head, .body: .decode(startsRequest: false)
        case .processing, .writing, .lingering, .closed: .stop
        }
    }

    /// Bytes arrived. A body's idle timeout restarts with every read, capped by its absolute deadline.
    package mutating func received(now: Int64) {
        if phase == .body { deadline = min(now + timeouts.bodyIdle, bodyDeadline) }
    }

    /// The client closed its sending side.
    package mutating func peerClosed() { peerClosedInput = true }

    /// The decoder needs more bytes; `partial` tells whether part of a request is buffered.
    package mutating func needMore(partial: Bool, now: Int64) {
        if phase == .idle && partial {
            phase = .head
            // RFC-independent hardening: the head must complete within an absolute deadline (slowloris).
            deadline = now + timeouts.header
        }
    }

    /// A head was decoded. `expectsContinue`: the client waits for `100 Continue` and sent none of the body yet.
    package mutating func headReceived(expectsContinue: Bool, now: Int64) -> HeadAction {
        requestCount += 1
        phase = .body
        bodyDeadline = now + timeouts.body
        deadline = min(now + timeouts.bodyIdle, bodyDeadline)
        if expectsContinue {
            writingInterim = true
            return .sendContinue
        }
        return .none
    }

    /// The body is complete: the handler runs, without a deadline.
    package mutating func bodyReceived() -> BodyAction {
        phase = .processing
        deadline = .max
        return .dispatch
    }

    /// After input ended or was consumed: closes a connection whose client sent EOF and has no complete
    /// request left to answer; one whose client sent EOF while its request is answered is watched again.
    package mutating func inputEnded() -> InputEndedAction {
        guard peerClosedInput else { return .none }
        switch phase {
        case .idle, .head, .body: return .close
        case .processing, .writing: return .watch
        case .lingering, .closed: return .none
        }
    }

    /// A handler finished (on the loop's thread): whether its response is still wanted.
    package func handlerFinished() -> HandlerFinishedAction {
        switch phase {
        case .processing: .send
        case .idle, .head, .body, .writing, .lingering, .closed: .drop
        }
    }

    /// The request is malformed (or timed out): the error response ends the connection, after draining.
    package mutating func failed() {
        closeAfterResponse = true
        drainBeforeClose = true
        phase = .processing
    }

    /// A fixed answer that ends the connection (e.g. 501) replaces the handler.
    package mutating func closesAfterResponse() { closeAfterResponse = true }

    // MARK: Writing

    /// The handler finished (or the engine answered); whether the response may keep the connection open.
    /// `clientKeepsAlive`: the request allows it; `handlerCloses`: the response asked to close; `stopping`:
    /// the server is shutting down.
    package mutating func responseStarted(clientKeepsAlive: Bool, handlerCloses: Bool, stopping: Bool, now: Int64)
        -> Bool
    {
        finalResponseStarted(
            clientKeepsAlive: clientKeepsAlive, handlerCloses: handlerCloses, stopping: stopping, now: now
        )
        .keepAlive
    }

    /// ``responseStarted(clientKeepsAlive:handlerCloses:stopping:now:)`` as the shell reports it: also whether an
    /// interim `100 Continue` is still partly unsent (it goes out first).
    package mutating func finalResponseStarted(
        clientKeepsAlive: Bool, handlerCloses: Bool, stopping: Bool, now: Int64
    ) -> ResponseStart {
        let keepAlive =
            clientKeepsAlive && !closeAfterResponse && !stopping && !handlerCloses && requestCount < maxRequests
        if !keepAlive { closeAfterResponse = true }
        let interimPending = writingInterim
        writingInterim = false
        phase = .writing
        deadline = now + timeouts.write
        return ResponseStart(keepAlive: keepAlive, interimPending: interimPending)
    }

    /// Some bytes were written: the write timeout restarts.
    package mutating func wroteSome(now: Int64) {
        deadline = now + timeouts.write
    }

    /// Everything pending was written. `inputConsumed`: no unread request bytes are buffered.
    package mutating func writeFinished(inputConsumed: Bool, now: Int64) -> WriteFinishedAction {
        if writingInterim {
            writingInterim = false
            deadline = min(now + timeouts.bodyIdle, bodyDeadline)
            return .readBody
        }
        if closeAfterResponse {
            // Lingering matters only when the client may still be sending (an error cut its request short, or it
            // pipelined more): closing with unread input makes the kernel send RST, which can destroy our
            // response before the client reads it. After a clean exchange there is nothing to drain.
            if peerClosedInput || (!drainBeforeClose && inputConsumed) { return .close }
            phase = .lingering
            deadline = now + timeouts.linger
            return .linger
        }
        phase = .idle
        deadline = now + timeouts.keepAlive
        return .readNext
    }

    // MARK: Time and shutdown

    /// The loop's clock moved to `now`: what a passed deadline requires.
    package mutating func tick(now: Int64) -> TickAction {
        guard now >= deadline else { return .none }
        switch phase {
        case .idle, .lingering, .writing:
            return .close
        case .head, .body:
            // RFC 9110 §15.5.9: 408 when the client did not produce a request in time; then close.
            failed()
            return .sendRequestTimeout
        case .processing, .closed:
            return .none
        }
    }

    /// Graceful stop: idle connections close now; the others finish the current exchange, then close.
    package mutating func beginShutdown() -> ShutdownAction {
        closeAfterResponse = true
        return phase == .idle ? .close : .none
    }

    /// The socket was closed. Returns false when it already was.
    package mutating func closed() -> Bool {
        guard phase != .closed else { return false }
        phase = .closed
        deadline = .max
        return true
    }

    /// What the socket should be watched for.
    package struct Interest: Equatable, Sendable {
        /// Readable (a request's bytes, or EOF while lingering).
        package var readable: Bool
        /// Writable (pending output).
        package var writable: Bool

        /// An interest.
        package init(readable: Bool, writable: Bool) {
            self.readable = readable
            self.writable = writable
        }
    }

    /// What the socket should be watched for in this state.
    package var interest: Interest {
        switch phase {
        case .idle, .head, .body: Interest(readable: !peerClosedInput, writable: writingInterim)
        case .lingering: Interest(readable: true, writable: false)
        case .writing: Interest(readable: false, writable: true)
        case .processing, .closed: Interest(readable: false, writable: false)
        }
    }
}
