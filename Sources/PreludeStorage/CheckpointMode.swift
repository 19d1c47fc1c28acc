/// Which checkpoint ``Database/close()`` runs (docs/storage.md, "Checkpoints"). While the database is open every
/// checkpoint is `PASSIVE` in both modes.
package enum CheckpointMode: String, Sendable, CaseIterable {
    /// `TRUNCATE` at close: every frame copied into the main file and the `-wal` file emptied, so a copy of the
    /// stopped database is self-contained. It waits (up to the busy timeout) for other processes' readers.
    case truncate
    /// `PASSIVE` at close too: never waits for another process. For a WAL-shipping backup such as Litestream, which
    /// holds a read transaction the whole time so that nobody restarts the WAL under it: a `TRUNCATE` would wait the
    /// whole busy timeout for that reader on every stop, then fail. The `-wal` file may stay beside the database.
    case passive
}
