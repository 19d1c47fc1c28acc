import PreludeStorage

/// A write that needs new pages: how storage health learns, while writes are failing, whether the disk has room
/// again (`StorageHealth.probeIfDue()`).
package enum StorageProbe {
    /// Allocates new pages (a fresh table and 64 KiB of blob) and commits their freeing, so it fails while no page
    /// can be added or the log cannot grow; nothing of it stays in the schema. Its outcome reaches the database's
    /// write observers like any write's.
    package static func run(_ database: Database) throws {
        try database.write { db in
            try db.executeScript(
                """
                CREATE TABLE prelude_storage_probe (filler BLOB);
                INSERT INTO prelude_storage_probe VALUES (zeroblob(65536));
                DROP TABLE prelude_storage_probe;
                """)
        }
    }
}
