import Dispatch
import Foundation
import Synchronization
import Testing

@testable import PreludeService

/// The background work's one shape (docs/architecture.md, "Background services"): the role's list starts in order
/// and stops in reverse, leader-only entries run only with their role, and the two runners (``WorkerThread``,
/// ``PeriodicTask``) wake early and stop cleanly. Threads are awaited with semaphores (a deadline only bounds a
/// failure); what a pass decides is tested on the state machines (ReplicaSyncMachineTests and others).
@Suite struct BackgroundServicesTests {
    /// The calls of several ``Recorder``s, in order.
    final class Log: Sendable {
        private let lines = Mutex<[String]>([])
        func append(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }

    /// A service that records its calls in a shared log.
    final class Recorder: BackgroundService {
        let name: String
        let log: Log
        let gate = Mutex<RunGate?>(nil)

        init(_ name: String, log: Log) {
            self.name = name
            self.log = log
        }

        func start(gate: RunGate) {
            self.gate.withLock { $0 = gate }
            log.append("start \(name)")
        }

        func wake() { log.append("wake \(name)") }
        func stop() { log.append("stop \(name)") }
    }

    /// The roles this node holds, set by the test.
    final class Roles: LeaderRoles {
        let held = Mutex<Set<LeaderWork>>([])
        func leads(_ work: LeaderWork) -> Bool { held.withLock { $0.contains(work) } }
    }

    /// A service on a real ``WorkerThread`` whose pass counts and sleeps an hour (wakeable) unless told otherwise.
    final class Counting: BackgroundService {
        let worker: WorkerThread
        let runs = Atomic(0)
        let ran = DispatchSemaphore(value: 0)
        let pause: WorkerThread.Pause?

        init(closedLook: Double = 3600, pause: WorkerThread.Pause? = nil) {
            worker = WorkerThread(name: "counting", closedLook: closedLook)
            self.pause = pause
        }

        var name: String { worker.name }
        func start(gate: RunGate) {
            worker.start(gate: gate) { [self] in
                runs.add(1, ordering: .relaxed)
                ran.signal()
                return pause ?? .after(3600)
            }
        }
        func wake() { worker.wake() }
        func stop() { worker.stop() }
    }

    static func waited(_ semaphore: DispatchSemaphore, seconds: Double = 10) -> Bool {
        semaphore.wait(timeout: .now() + seconds) == .success
    }

    @Test func theListStartsInOrderAndStopsInReverse() {
        let log = Log()
        let services = BackgroundServices(
            [
                .everyNode(Recorder("election", log: log)), .everyNode(Recorder("reloader", log: log)),
                .leaderOnly(.scheduler, Recorder("scheduler", log: log)),
                .leaderOnly(.webhooks, Recorder("webhooks", log: log)),
            ], roles: Roles())
        #expect(services.names == ["election", "reloader", "scheduler", "webhooks"])
        services.start()
        services.start()  // once only
        services.stop()
        services.stop()  // once only
        #expect(
            log.all == [
                "start election", "start reloader", "start scheduler", "start webhooks",
                "stop webhooks", "stop scheduler", "stop reloader", "stop election",
            ])
    }

    @Test func leaderOnlyEntriesAreGatedByTheirRoleAndWokenWhenItIsTaken() throws {
        let log = Log()
        let roles = Roles()
        let everywhere = Recorder("reloader", log: log)
        let scheduler = Recorder("scheduler", log: log)
        let webhooks = Recorder("webhooks", log: log)
        let services = BackgroundServices(
            [.everyNode(everywhere), .leaderOnly(.scheduler, scheduler), .leaderOnly(.webhooks, webhooks)],
            roles: roles)
        services.start()
        defer { services.stop() }
        let schedulerGate = try #require(scheduler.gate.withLock { $0 } as RunGate?)
        let webhooksGate = try #require(webhooks.gate.withLock { $0 } as RunGate?)
        let everywhereGate = try #require(everywhere.gate.withLock { $0 } as RunGate?)
        #expect(!schedulerGate.isOpen() && !webhooksGate.isOpen() && everywhereGate.isOpen())
        roles.held.withLock { $0 = [.scheduler] }
        #expect(schedulerGate.isOpen() && !webhooksGate.isOpen())
        services.wake(leading: .scheduler)
        #expect(log.all.filter { $0.hasPrefix("wake") } == ["wake scheduler"])
        roles.held.withLock { $0 = [] }
        #expect(!schedulerGate.isOpen())
    }

    @Test func withoutAnElectionEveryEntryRuns() throws {
        let log = Log()
        let scheduler = Recorder("scheduler", log: log)
        let services = BackgroundServices([.leaderOnly(.scheduler, scheduler)], roles: nil)
        services.start()
        defer { services.stop() }
        let gate = try #require(scheduler.gate.withLock { $0 } as RunGate?)
        #expect(gate.isOpen())
    }

    @Test func aWorkerWithoutItsRoleNeverRunsItsPassUntilTheRoleIsTaken() {
        let roles = Roles()
        // A closed gate is looked at again every millisecond: many looks, and the pass must run in none of them.
        let work = Counting(closedLook: 0.001)
        let services = BackgroundServices([.leaderOnly(.rollouts, work)], roles: roles)
        services.start()
        defer { services.stop() }
        let deadline = Date().addingTimeInterval(10)
        while work.worker.passCount < 20, Date() < deadline { usleep(1000) }
        #expect(work.worker.passCount >= 20)
        #expect(work.runs.load(ordering: .relaxed) == 0)
        roles.held.withLock { $0 = [.rollouts] }
        services.wake(leading: .rollouts)
        #expect(Self.waited(work.ran))
        #expect(work.runs.load(ordering: .relaxed) == 1)
    }

    @Test func aWakeEndsAWorkersSleepEarly() {
        let work = Counting()
        work.start()
        defer { work.stop() }
        #expect(Self.waited(work.ran))
        // The pass asked for an hour: only the wake can bring the second pass within the test's bound.
        work.wake()
        #expect(Self.waited(work.ran))
        #expect(work.runs.load(ordering: .relaxed) == 2)
    }

    @Test func aWakeDuringAPassSkipsTheSleepAfterIt() {
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let runs = Atomic(0)
        let second = DispatchSemaphore(value: 0)
        let worker = WorkerThread(name: "busy")
        worker.start(gate: .open) {
            if runs.add(1, ordering: .relaxed).newValue == 1 {
                entered.signal()
                release.wait()
            } else {
                second.signal()
            }
            return .after(3600)
        }
        defer { worker.stop() }
        #expect(Self.waited(entered))
        worker.wake()
        release.signal()
        #expect(Self.waited(second))
    }

    @Test func aBackoffIsNotCutShortByAWakeButStopEndsIt() {
        let work = Counting(pause: .after(3600, wakeable: false))
        work.start()
        #expect(Self.waited(work.ran))
        work.wake()
        #expect(!Self.waited(work.ran, seconds: 0.3))
        let stopped = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            work.stop()
            stopped.signal()
        }
        #expect(Self.waited(stopped))
        #expect(work.runs.load(ordering: .relaxed) == 1)
    }

    @Test func stopAbortsThePassInProgressAndWaitsForIt() {
        let entered = DispatchSemaphore(value: 0)
        // Stands for the HTTP exchange a pass is in: `onStop` aborts it, as the services' clients do.
        let exchange = DispatchSemaphore(value: 0)
        let finished = Atomic(false)
        let runs = Atomic(0)
        let worker = WorkerThread(name: "exchange") { exchange.signal() }
        worker.start(gate: .open) {
            runs.add(1, ordering: .relaxed)
            entered.signal()
            exchange.wait()
            #expect(worker.isStopping)
            finished.store(true, ordering: .releasing)
            return .none
        }
        #expect(Self.waited(entered))
        worker.stop()
        let finishedBeforeStopReturned = finished.load(ordering: .acquiring)
        #expect(finishedBeforeStopReturned)
        #expect(runs.load(ordering: .relaxed) == 1)
        worker.stop()  // idempotent
        worker.start(gate: .open) { .none }  // a stopped worker stays stopped
        #expect(runs.load(ordering: .relaxed) == 1)
    }

    @Test func aPeriodicTaskRunsOnWakeOnlyWhileItsGateIsOpen() {
        let open = Atomic(false)
        let runs = Atomic(0)
        let ran = DispatchSemaphore(value: 0)
        let task = PeriodicTask(name: "test", initialDelay: 3600, interval: 3600, leeway: .seconds(1))
        task.wake()  // not running: nothing queued
        task.start(gate: RunGate { open.load(ordering: .acquiring) }) {
            runs.add(1, ordering: .relaxed)
            ran.signal()
        }
        #expect(task.isRunning)
        open.store(true, ordering: .releasing)
        task.wake()
        #expect(Self.waited(ran))
        open.store(false, ordering: .releasing)
        task.wake()
        task.stop()  // waits for the queued wake-up, which finds the gate closed
        #expect(runs.load(ordering: .relaxed) == 1)
        #expect(!task.isRunning)
    }

    @Test func aPrimaryAndAReplicaStartTheirRolesLists() throws {
        let fixture = ServiceFixture()
        let primary = try PreludeService.start(
            configuration: ServiceFixture.make(fixture), logger: Logger(level: .error))
        defer { primary.stop() }
        #expect(
            primary.services.names == [
                "leader-election", "policy-reload", "scheduler", "rollouts", "webhooks", "retention",
            ])
        let leaders: [LeaderWork?] = [nil, nil, .scheduler, .rollouts, .webhooks, .retention]
        #expect(primary.services.entries.map(\.leader) == leaders)
        let replicaFixture = ServiceFixture()
        var configuration = ServiceFixture.make(replicaFixture)
        configuration.followURL = FollowURL(host: "127.0.0.1", port: primary.port, prefix: "")
        let replica = try PreludeService.start(configuration: configuration, logger: Logger(level: .error))
        defer { replica.stop() }
        #expect(replica.services.names == ["policy-reload", "replica-sync", "outbox-forwarder"])
        #expect(replica.services.entries.allSatisfy { $0.leader == nil })
    }
}

extension BackgroundServicesTests {
    /// A primary's list over a real election (the fake lock server of LeaderElectionTests): the node that does not
    /// lead runs none of the leader-only work; when the leader dies, the round that takes the role wakes the work at
    /// once (not after its hour-long look at the closed gate), and stopping the list gives the roles back.
    @Test func aRoleTakenOverWakesItsWorkAtOnceAndStopGivesItBack() {
        let server = LeaderElectionTests.LockServer()
        let leaderSession = LeaderElectionTests.Session(server: server, name: "a")
        let leader = LeaderElection(locks: leaderSession, logger: Logger(level: .error), interval: 3600)
        leader.runOnce()
        #expect(leader.roles == LeaderWork.allCases)
        let election = LeaderElection(
            locks: LeaderElectionTests.Session(server: server, name: "b"), logger: Logger(level: .error),
            interval: 3600)
        let log = Log()
        let scheduler = Counting()
        let rollouts = Counting()
        let services = BackgroundServices.primary(
            election: election, reloader: Recorder("reloader", log: log), scheduler: scheduler, rollouts: rollouts,
            webhooks: nil, retention: Counting())
        #expect(services.names == ["leader-election", "reloader", "counting", "counting", "counting"])
        services.start()
        #expect(election.roles.isEmpty)
        let deadline = Date().addingTimeInterval(10)
        while scheduler.worker.passCount < 1 || rollouts.worker.passCount < 1, Date() < deadline { usleep(1000) }
        #expect(scheduler.runs.load(ordering: .relaxed) == 0 && rollouts.runs.load(ordering: .relaxed) == 0)
        leaderSession.end()
        election.runOnce()  // the round the election's timer runs every second in production
        #expect(election.roles == LeaderWork.allCases)
        #expect(Self.waited(scheduler.ran))
        #expect(Self.waited(rollouts.ran))
        services.stop()
        #expect(election.roles.isEmpty)
        #expect(server.owners.withLock { $0.isEmpty })
    }
}
