import Foundation
import PreludeStorage
import PreludeTestSupport
import Synchronization
import Testing

@testable import PreludeService

/// Leader roles among nodes sharing one database (docs/scaling.md, "PostgreSQL cluster"), over a fake lock server
/// that behaves like PostgreSQL's session-level advisory locks: a lock belongs to one session, and the server frees
/// every lock of a session that ends.
@Suite struct LeaderElectionTests {
    /// The database server's lock table.
    final class LockServer: Sendable {
        let owners = Mutex<[Int64: String]>([:])
    }

    /// One node's session with the server.
    final class Session: LeaderLockSource {
        struct Gone: Error {}
        let server: LockServer
        let name: String
        let alive = Atomic(true)

        init(server: LockServer, name: String) {
            self.server = server
            self.name = name
        }

        func tryAcquire(_ key: Int64) throws -> Bool {
            guard alive.load(ordering: .acquiring) else { throw Gone() }
            return server.owners.withLock { owners in
                if owners[key] == nil { owners[key] = name }
                return owners[key] == name
            }
        }

        func verify() -> Set<Int64> {
            guard alive.load(ordering: .acquiring) else { return [] }
            return server.owners.withLock { Set($0.filter { $0.value == name }.keys) }
        }

        func releaseAll() {
            server.owners.withLock { owners in owners = owners.filter { $0.value != name } }
        }

        /// The node died (SIGKILL) or its session was cut: the server frees its locks.
        func end() {
            alive.store(false, ordering: .releasing)
            releaseAll()
        }
    }

    static func node(_ name: String, on server: LockServer) -> (LeaderElection, Session) {
        let session = Session(server: server, name: name)
        return (LeaderElection(locks: session, logger: Logger(level: .error)), session)
    }

    @Test func eachKindOfWorkHasExactlyOneLeader() {
        let server = LockServer()
        let nodes = ["a", "b", "c"].map { Self.node($0, on: server) }
        for _ in 0..<3 { for (election, _) in nodes { election.runOnce() } }
        for work in LeaderWork.allCases {
            #expect(nodes.filter { $0.0.leads(work) }.count == 1, "\(work)")
        }
        // The first node to ask took every role; the others keep asking.
        #expect(nodes[0].0.roles == LeaderWork.allCases)
        #expect(nodes[1].0.roles.isEmpty && nodes[2].0.roles.isEmpty)
    }

    @Test func whenTheLeaderDiesAnotherNodeTakesOverAtItsNextRound() {
        let server = LockServer()
        let (first, firstSession) = Self.node("a", on: server)
        let (second, _) = Self.node("b", on: server)
        first.runOnce()
        second.runOnce()
        #expect(second.roles.isEmpty)

        firstSession.end()
        second.runOnce()
        #expect(second.roles == LeaderWork.allCases)
        // The dead session's node (had it survived, cut off) drops its roles at its own next round.
        first.runOnce()
        #expect(first.roles.isEmpty)
        #expect(first.transitions == LeaderWork.allCases.count * 2)
    }

    @Test func aStoppedNodeGivesItsRolesBack() {
        let server = LockServer()
        let (first, _) = Self.node("a", on: server)
        let (second, _) = Self.node("b", on: server)
        first.runOnce()
        first.stop()
        #expect(first.roles.isEmpty)
        second.runOnce()
        #expect(second.roles == LeaderWork.allCases)
    }

    @Test func takingARoleWakesItsWork() {
        let server = LockServer()
        let election = LeaderElection(
            locks: Session(server: server, name: "a"), logger: Logger(level: .error), interval: 3600)
        let woken = Mutex<[LeaderWork]>([])
        election.whenTaken { work in woken.withLock { $0.append(work) } }
        election.start()
        defer { election.stop() }
        #expect(woken.withLock { $0 } == LeaderWork.allCases)
    }

    /// PostgreSQL's advisory locks themselves: two databases (two nodes) on one server elect one leader; when the
    /// leader's session is cut, the other takes every role at its next round and the cut-off node drops its own.
    @Test(.enabled(if: TestDatabase.isPostgres, "PostgreSQL's advisory locks"))
    func postgresAdvisoryLocksElectOneNodeAndFreeACutOffOnesRoles() throws {
        let url = TestDatabase.location(file: "unused")
        let first = try Database(location: DatabaseLocation(url), readerCount: 1)
        let second = try Database(location: DatabaseLocation(url), readerCount: 1)
        defer {
            first.close()
            second.close()
        }
        let leader = LeaderElection(locks: SessionLocks(database: first), logger: Logger(level: .error))
        let follower = LeaderElection(locks: SessionLocks(database: second), logger: Logger(level: .error))
        leader.runOnce()
        follower.runOnce()
        #expect(leader.roles == LeaderWork.allCases)
        #expect(follower.roles.isEmpty)

        // Cut the leader's lock session (what a dead machine or a failover does to it).
        let cut = try second.write { connection in
            try connection.query(
                // This test's database only: other tests' nodes in the same cluster hold advisory locks too.
                "SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND granted"
                    + " AND pid <> pg_backend_pid()"
                    + " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())")
        }
        #expect(cut.count == LeaderWork.allCases.count)
        _ = try Self.waitForRoles(follower, LeaderWork.allCases)
        leader.runOnce()
        #expect(leader.roles.isEmpty)
        leader.stop()
        follower.stop()
    }

    /// Runs rounds until `election` leads `roles` (the server frees a terminated session's locks asynchronously).
    static func waitForRoles(_ election: LeaderElection, _ roles: [LeaderWork]) throws -> Int {
        for round in 1...200 {
            election.runOnce()
            if election.roles == roles { return round }
            usleep(10_000)
        }
        Issue.record("roles not taken within 200 rounds: \(election.roles)")
        return 0
    }

    @Test func lockKeysAreDistinct() {
        #expect(Set(LeaderWork.allCases.map(\.lockKey)).count == LeaderWork.allCases.count)
    }

    /// On SQLite one process owns the file: every role is granted at once and kept.
    @Test(.enabled(if: !TestDatabase.isPostgres, "the SQLite engine's locks"))
    func onSQLiteTheProcessLeadsEverything() throws {
        let directory = TemporaryTestDirectory()
        let database = try Database(path: directory.path("leader.sqlite"))
        defer { database.close() }
        let election = LeaderElection(locks: SessionLocks(database: database), logger: Logger(level: .error))
        election.runOnce()
        election.runOnce()
        #expect(election.roles == LeaderWork.allCases)
        #expect(election.transitions == LeaderWork.allCases.count)
    }
}
