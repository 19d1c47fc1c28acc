import PreludeStorage

/// A write that needs new pages: how storage health learns, while writes are failing, whether the disk has room
/// again (`StorageHealth.probeIfDue()`).
package enum StorageProbe {
    /// Allocates new pages (a fresh table and 64 KiB of bytes) and commits their freeing, so it fails while no page
    /// can be added or the log cannot grow; nothing of it stays in the schema. Its outcome reaches the database's
    /// write observers like any write's. PostgreSQL has no `zeroblob`, and would compress 64 KiB of zeros to a few
    /// bytes, so there the column is stored uncompressed and filled with `decode`.
    package static func run(_ database: Database) throws {
        try database.write { db in
            switch db.engine {
            case .sqlite:
                try db.executeScript(
                    """
                    CREATE TABLE prelude_storage_probe (filler BLOB);
                    INSERT INTO prelude_storage_probe VALUES (zeroblob(65536));
                    DROP TABLE prelude_storage_probe;
                    """)
            case .postgres:
                try db.executeScript(
                    """
                    CREATE TABLE prelude_storage_probe (filler BYTEA);
                    ALTER TABLE prelude_storage_probe ALTER COLUMN filler SET STORAGE EXTERNAL;
                    INSERT INTO prelude_storage_probe VALUES (decode(repeat('00', 65536), 'hex'));
                    DROP TABLE prelude_storage_probe;
                    """)
            }
        }
    }
}
