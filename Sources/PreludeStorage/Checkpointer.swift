import CSQLite
import Dispatch
import PreludeLocking

/// Checkpoints the WAL on its own connection and thread, so commits do not wait for them.
///
/// SQLite's automatic checkpoint runs inside the `COMMIT` that takes the WAL past 1,000 frames: that commit
/// copies every frame into the database file and fsyncs it before it returns, which was the slowest event
/// batches' latency (docs/storage.md, "Checkpoints"). Instead the writer's WAL hook asks this checkpointer for a
/// `PASSIVE` checkpoint once the WAL holds ``requestFrames`` frames; it runs on a private serial queue while the
/// writer goes on committing.
///
/// The WAL restarts from its beginning only at a transaction that finds every frame checkpointed, which a
/// background checkpoint racing new commits under load rarely leaves behind. So under sustained writes the WAL
/// grows until ``inlineFrames`` frames (about 32 MiB), where the writer checkpoints inline after its commit, as
/// SQLite's automatic checkpoint would have at 1,000 frames: by then the background has copied nearly every
/// frame, that inline checkpoint has little left to do, and the next transaction restarts the WAL. (Finishing
/// inline as soon as the background is nearly done keeps the WAL near 4 MiB but puts a database fsync back on
/// the commit path every few commits: it was measured slower, docs/storage.md.) A reader holding an old snapshot
/// or a slow disk fall back to the same inline checkpoint.
final class Checkpointer: Sendable {
    /// WAL size (frames, i.e. pages) from which the writer asks for a background checkpoint: SQLite's default
    /// automatic-checkpoint threshold.
    static let requestFrames: Int32 = 1_000
    /// WAL size from which the writer checkpoints inline after its commit.
    static let inlineFrames: Int32 = 8_000

    private struct State {
        var requested = false
        var closed = false
        var completed = 0
    }

    private let connection: Connection
    private let queue = DispatchQueue(label: "prelude.storage.checkpointer")
    private let state = PosixLock(State())

    init(connection: Connection) {
        self.connection = connection
    }

    /// Checkpoints run in the background so far.
    var completedCheckpoints: Int { state.withLock { $0.completed } }

    /// Installs the WAL hook on `writer`. `self` must outlive the writer connection (the database holds both).
    func attach(to writer: Connection) {
        writer.setWALHook(context: Unmanaged.passUnretained(self).toOpaque()) { context, db, _, frames in
            guard let context else { return SQLITE_OK }
            let checkpointer = Unmanaged<Checkpointer>.fromOpaque(context).takeUnretainedValue()
            if frames >= Checkpointer.inlineFrames {
                // Copy what is left here and let the next transaction restart the WAL.
                sqlite3_wal_checkpoint_v2(db, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
            } else if frames >= Checkpointer.requestFrames {
                checkpointer.request()
            }
            return SQLITE_OK
        }
    }

    /// Asks for a checkpoint; requests made while one is queued are merged into it.
    func request() {
        let start = state.withLock { state in
            defer { state.requested = true }
            return !state.requested && !state.closed
        }
        guard start else { return }
        queue.async { [self] in
            let run = state.withLock { state in
                state.requested = false
                return !state.closed
            }
            guard run else { return }
            // A failure (I/O error) leaves the frames in the WAL, where readers still find them; the next request
            // or the writer's inline checkpoint tries again.
            if (try? connection.checkpointPassive()) != nil { state.withLock { $0.completed += 1 } }
        }
    }

    /// Returns once the checkpoints requested so far have run.
    func waitForRequested() { queue.sync {} }

    /// Waits for a running checkpoint and closes the connection; later requests do nothing.
    func close() {
        state.withLock { $0.closed = true }
        queue.sync { connection.close() }
    }
}
