#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// String path operations the service needs, without `NSString` (the server links FoundationEssentials only,
/// which keeps the full Foundation and its ICU data out of the process: BENCHMARKS.md, issue 16).
package enum FilePath {
    /// The path without its last component, as `NSString.deletingLastPathComponent` gives it: "" for "name",
    /// "/" for "/name", "a/b" for "a/b/c" and "a/b/c/" (trailing slashes do not count).
    package static func directory(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        if slash == trimmed.startIndex { return "/" }
        var parent = trimmed[..<slash]
        while parent.count > 1, parent.hasSuffix("/") { parent = parent.dropLast() }
        return String(parent)
    }

    /// `component` appended to `base` with one slash between them, as `NSString.appendingPathComponent`.
    package static func join(_ base: String, _ component: String) -> String {
        if base.isEmpty { return component }
        if component.isEmpty { return base }
        return (base.hasSuffix("/") ? String(base.dropLast()) : base) + "/"
            + (component.hasPrefix("/") ? String(component.dropFirst()) : component)
    }

    /// Whether `path` names a directory (following symbolic links); nil when nothing is there.
    package static func isDirectory(_ path: String) -> Bool? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let resolved = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)).map {
            $0.hasPrefix("/") ? $0 : join(directory(of: path), $0)
        }
        let type = (try? FileManager.default.attributesOfItem(atPath: resolved ?? path))?[.type] as? FileAttributeType
        return type == .typeDirectory
    }
}
