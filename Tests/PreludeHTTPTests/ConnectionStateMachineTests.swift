import PreludeHTTP
import Testing

/// The connection's protocol decisions, driven with explicit times: every timeout fires exactly at its deadline.
@Suite struct ConnectionStateMachineTests {
    static let timeouts = ConnectionStateMachine.Timeouts(
        header: 100, bodyIdle: 30, body: 200, write: 50, keepAlive: 500, linger: 20)

    static func make(maxRequests: Int = 10, now: Int64 = 1000) -> ConnectionStateMachine {
        ConnectionStateMachine(timeouts: timeouts, maxRequests: maxRequests, now: now)
    }

    @Test func slowHeadGets408AtTheAbsoluteHeaderDeadline() {
        var m = Self.make()
        m.needMore(partial: true, now: 1010)
        #expect(m.phase == .head)
        // More bytes of the head do not move the deadline (slowloris).
        m.received(now: 1100)
        m.needMore(partial: true, now: 1100)
        #expect(m.tick(now: 1109) == .none)
        #expect(m.tick(now: 1110) == .sendRequestTimeout)
        #expect(m.closeAfterResponse)
        #expect(m.phase == .processing)
    }

    @Test func bodyIdleTimeoutRestartsPerReadCappedByTheBodyDeadline() {
        var m = Self.make()
        #expect(m.headReceived(expectsContinue: false, now: 1000) == .none)
        #expect(m.deadline == 1030)
        m.received(now: 1020)
        #expect(m.tick(now: 1049) == .none)
        m.received(now: 1180)
        // min(1180 + 30, 1000 + 200)
        #expect(m.deadline == 1200)
        #expect(m.tick(now: 1200) == .sendRequestTimeout)
    }

    @Test func handlersHaveNoDeadlineAndWritesOneThatProgressRestarts() {
        var m = Self.make()
        _ = m.headReceived(expectsContinue: false, now: 1000)
        #expect(m.bodyReceived() == .dispatch)
        #expect(m.tick(now: .max - 1) == .none)
        #expect(m.interest == .init(readable: false, writable: false))
        let keepAlive = m.responseStarted(clientKeepsAlive: true, handlerCloses: false, stopping: false, now: 5000)
        #expect(keepAlive)
        #expect(m.interest == .init(readable: false, writable: true))
        m.wroteSome(now: 5040)
        #expect(m.tick(now: 5089) == .none)
        #expect(m.tick(now: 5090) == .close)
    }

    @Test func keptAliveConnectionClosesWhenIdle() {
        var m = Self.make()
        _ = m.headReceived(expectsContinue: false, now: 1000)
        _ = m.bodyReceived()
        _ = m.responseStarted(clientKeepsAlive: true, handlerCloses: false, stopping: false, now: 1001)
        #expect(m.writeFinished(inputConsumed: true, now: 1002) == .readNext)
        #expect(m.phase == .idle)
        #expect(m.tick(now: 1501) == .none)
        #expect(m.tick(now: 1502) == .close)
    }

    @Test(arguments: [
        // client keeps alive, handler closes, stopping, requests so far → keep-alive
        (true, false, false, 1, true), (false, false, false, 1, false), (true, true, false, 1, false),
        (true, false, true, 1, false), (true, false, false, 2, false),
    ])
    func keepAliveNeedsEveryoneToAgree(client: Bool, handler: Bool, stopping: Bool, requests: Int, expected: Bool) {
        var m = Self.make(maxRequests: 2)
        for _ in 0..<requests {
            _ = m.headReceived(expectsContinue: false, now: 0)
            _ = m.bodyReceived()
        }
        #expect(
            m.responseStarted(clientKeepsAlive: client, handlerCloses: handler, stopping: stopping, now: 0) == expected)
        #expect(m.closeAfterResponse == !expected)
    }

    @Test func errorResponsesLingerUnlessTheClientIsGone() {
        var m = Self.make()
        m.failed()
        _ = m.responseStarted(clientKeepsAlive: true, handlerCloses: false, stopping: false, now: 1000)
        #expect(m.writeFinished(inputConsumed: true, now: 1000) == .linger)
        #expect(m.interest == .init(readable: true, writable: false))
        #expect(m.tick(now: 1019) == .none)
        #expect(m.tick(now: 1020) == .close)

        // After a clean exchange that must close, nothing is drained; after EOF, neither.
        var clean = Self.make()
        _ = clean.headReceived(expectsContinue: false, now: 0)
        _ = clean.bodyReceived()
        _ = clean.responseStarted(clientKeepsAlive: false, handlerCloses: false, stopping: false, now: 0)
        #expect(clean.writeFinished(inputConsumed: true, now: 0) == .close)
        var gone = Self.make()
        gone.failed()
        gone.peerClosed()
        _ = gone.responseStarted(clientKeepsAlive: true, handlerCloses: false, stopping: false, now: 0)
        #expect(gone.writeFinished(inputConsumed: false, now: 0) == .close)
    }

    @Test func continueIsWrittenWhileTheBodyDeadlineRuns() {
        var m = Self.make()
        #expect(m.headReceived(expectsContinue: true, now: 1000) == .sendContinue)
        #expect(m.interest == .init(readable: true, writable: true))
        #expect(m.writeFinished(inputConsumed: true, now: 1010) == .readBody)
        #expect(m.phase == .body)
        #expect(m.deadline == 1040)
    }

    @Test func eofAndShutdownClose() {
        var m = Self.make()
        m.peerClosed()
        #expect(m.inputEnded() == .close)
        #expect(m.interest == .init(readable: false, writable: false))
        var idle = Self.make()
        #expect(idle.beginShutdown() == .close)
        var busy = Self.make()
        _ = busy.headReceived(expectsContinue: false, now: 0)
        _ = busy.bodyReceived()
        #expect(busy.beginShutdown() == .none)
        let keepAlive = busy.responseStarted(clientKeepsAlive: true, handlerCloses: false, stopping: false, now: 0)
        #expect(!keepAlive)
        let first = busy.closed()
        let second = busy.closed()
        #expect(first && !second)
        #expect(busy.tick(now: .max) == .none)
    }

    /// The shell asks the machine what each socket event means instead of reading its phase.
    @Test func socketEventsAnswerWhatTheShellDoes() {
        var m = Self.make()
        #expect(m.readable() == .read && m.writable() == .ignore)
        #expect(m.nextInput(buffered: false) == .stop)
        #expect(m.nextInput(buffered: true) == .decode(startsRequest: true))
        m.needMore(partial: true, now: 1000)
        #expect(m.nextInput(buffered: true) == .decode(startsRequest: false))
        #expect(m.headReceived(expectsContinue: true, now: 1000) == .sendContinue)
        // The interim 100 Continue is written while the body is read, and still while the handler runs.
        #expect(m.writable() == .flush && m.readable() == .read)
        #expect(m.bodyReceived() == .dispatch)
        #expect(m.writable() == .flush && m.readable() == .ignore && m.nextInput(buffered: true) == .stop)
        #expect(m.handlerFinished() == .send)
        m.peerClosed()
        let watched = m.inputEnded()
        #expect(watched == .watch)
        let start = m.finalResponseStarted(clientKeepsAlive: true, handlerCloses: false, stopping: false, now: 1001)
        #expect(start.keepAlive && start.interimPending)
        #expect(m.writable() == .flush && m.readable() == .ignore)
        #expect(m.handlerFinished() == .drop)
        // Written: back to reading, where the client's EOF with nothing buffered closes the connection.
        #expect(m.writeFinished(inputConsumed: true, now: 1002) == .readNext)
        let ended = m.inputEnded()
        #expect(ended == .close)
    }

    @Test func lingeringDrainsAndAClosedConnectionIgnoresEverything() {
        var m = Self.make()
        m.failed()
        _ = m.responseStarted(clientKeepsAlive: true, handlerCloses: false, stopping: false, now: 0)
        #expect(m.writeFinished(inputConsumed: false, now: 0) == .linger)
        #expect(m.readable() == .drain && m.writable() == .ignore)
        let closed = m.closed()
        #expect(closed)
        #expect(m.readable() == .ignore && m.writable() == .ignore && m.nextInput(buffered: true) == .stop)
        let ended = m.inputEnded()
        #expect(m.handlerFinished() == .drop && ended == .none)
    }
}
