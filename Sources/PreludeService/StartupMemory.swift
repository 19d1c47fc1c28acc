import PreludeStorage

#if os(Linux)
    import CLinuxSystem
    import Glibc
#endif

/// Gives back the memory that start-up used and serving does not, once, after the server is listening
/// (docs/operations.md, "Memory").
///
/// Start-up runs code and builds data that serving never touches again: argument parsing, the migration catalog and
/// its SQL, the demo seed's JSON, the first policy compilation. Three kinds of pages stay resident after it:
/// - **Clean pages of read-only file mappings** (the code and constants of the binary and of the shared libraries
///   that start-up ran): they are unmapped from this process with `madvise(MADV_DONTNEED)`. They stay in the page
///   cache, so code that runs later maps them again with a minor fault, as after the kernel reclaims them under
///   memory pressure. Only mappings that are not writable and hold no private copy of a page (smaps `Anonymous: 0`)
///   are unmapped: for those the file *is* the content, so nothing can be lost.
/// - **SQLite page cache** pages of the migrations and the seed: ``Database/releaseMemory()``.
/// - **Freed malloc memory** still held by the allocator: `malloc_trim(0)`.
///
/// This runs once; the request path is unchanged (nothing here runs per request).
package enum StartupMemory {
    /// What ``release(database:)`` gave back.
    package struct Released: Sendable, Equatable {
        /// Mappings unmapped with `MADV_DONTNEED`.
        package var mappings = 0
        /// Their resident size before, in KiB (smaps `Rss`).
        package var mappedKiB = 0
        /// True when `malloc_trim` returned memory to the kernel.
        package var trimmed = false
    }

    /// One mapping of `/proc/self/smaps` that may be unmapped.
    package struct Mapping: Sendable, Equatable {
        /// Start address (inclusive).
        package var start: UInt
        /// End address (exclusive).
        package var end: UInt
        /// Resident KiB (`Rss`).
        package var residentKiB: Int
    }

    /// Releases SQLite's unused cache pages, trims malloc and unmaps the clean read-only file mappings.
    /// On systems other than Linux it only releases SQLite's pages.
    @discardableResult
    package static func release(database: Database) -> Released {
        database.releaseMemory()
        var released = Released()
        #if os(Linux)
            released.trimmed = prelude_malloc_trim() == 1
            guard let smaps = ProcessMetrics.read("/proc/self/smaps") else { return released }
            for mapping in cleanReadOnlyFileMappings(smaps: smaps) {
                let address = UnsafeMutableRawPointer(bitPattern: mapping.start)
                if madvise(address, Int(mapping.end - mapping.start), MADV_DONTNEED) == 0 {
                    released.mappings += 1
                    released.mappedKiB += mapping.residentKiB
                }
            }
        #endif
        return released
    }

    /// The mappings of `smaps` (the text of `/proc/PID/smaps`) that can be unmapped without losing anything:
    /// backed by a file (the path starts with `/`), private, not writable, with resident pages and no private copy
    /// of any page (`Anonymous: 0 kB`), and not locked.
    package static func cleanReadOnlyFileMappings(smaps: String) -> [Mapping] {
        var found: [Mapping] = []
        var candidate: Mapping?
        var anonymousKiB = 0
        var locked = false
        func finish() {
            if let mapping = candidate, mapping.residentKiB > 0, anonymousKiB == 0, !locked { found.append(mapping) }
            candidate = nil
        }
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard let first = fields.first else { continue }
            if first.hasSuffix(":") {
                guard candidate != nil, fields.count >= 2 else { continue }
                switch first {
                case "Rss:": candidate?.residentKiB = Int(fields[1]) ?? 0
                // Any page the process wrote (a relocated constant, a debugger's breakpoint) is a private copy
                // that MADV_DONTNEED would throw away: such a mapping is left alone.
                case "Anonymous:": anonymousKiB = Int(fields[1]) ?? 1
                case "VmFlags:": locked = fields.contains("lo")
                default: break
                }
                continue
            }
            // A mapping header: "start-end perms offset dev inode [path]".
            finish()
            let bounds = first.split(separator: "-")
            guard fields.count >= 6, bounds.count == 2, let start = UInt(bounds[0], radix: 16),
                let end = UInt(bounds[1], radix: 16), end > start
            else { continue }
            let permissions = fields[1]
            guard permissions.count == 4, permissions.hasPrefix("r"), !permissions.contains("w"),
                permissions.hasSuffix("p"), fields[5].hasPrefix("/")
            else { continue }
            candidate = Mapping(start: start, end: end, residentKiB: 0)
            anonymousKiB = 0
            locked = false
        }
        finish()
        return found
    }
}
