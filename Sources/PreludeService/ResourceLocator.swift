#if canImport(FoundationEssentials)
    import Dispatch
    import FoundationEssentials
    import Glibc
#else
    import Foundation
#endif

/// Finds files shipped beside the binary (migrations/, config/) whether it runs from the repository
/// (`swift run`, `.build/release/prelude`), from an install prefix, or in the container.
///
/// A relative path is tried, in order: against the working directory; then against the executable's
/// directory and each of its ancestors, both as is and under `share/prelude/`. So `.build/release/prelude`
/// finds the repository's `migrations/`, `/usr/local/bin/prelude` finds `/usr/local/share/prelude/migrations`,
/// and `/app/bin/prelude` finds `/app/migrations`. Absolute paths are used as given.
package enum ResourceLocator {
    /// Returns the first existing candidate for `path`, or nil.
    package static func locate(
        _ path: String,
        currentDirectory: String = FileManager.default.currentDirectoryPath,
        executablePath: String? = ResourceLocator.executablePath(),
        exists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) }
    ) -> String? {
        candidates(path, currentDirectory: currentDirectory, executablePath: executablePath).first(where: exists)
    }

    /// Every place `locate` looks, in order.
    package static func candidates(_ path: String, currentDirectory: String, executablePath: String?) -> [String] {
        if path.hasPrefix("/") { return [path] }
        var result = [join(currentDirectory, path)]
        if let executablePath {
            var directory = FilePath.directory(of: executablePath)
            while !directory.isEmpty {
                result.append(join(directory, path))
                result.append(join(join(directory, "share/prelude"), path))
                if directory == "/" { break }
                directory = FilePath.directory(of: directory)
            }
        }
        var seen = Set<String>()
        return result.filter { seen.insert($0).inserted }
    }

    /// The running executable, from `/proc/self/exe` (works even when argv[0] is a bare name).
    package static func executablePath() -> String? {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments.first
    }

    private static func join(_ base: String, _ path: String) -> String {
        FilePath.join(base, path)
    }
}
