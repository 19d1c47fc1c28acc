/// Facts about this build of the service.
public enum ServiceInfo {
    /// The product name sent in the `Server` header and logs.
    public static let name = "prelude"
    /// The release version: `prelude --version`, `/healthz`, `prelude_build_info`, the replica's User-Agent.
    /// Each release has a section in CHANGELOG.md (with its "Upgrading" note) and is the tag clients pin
    /// (docs/client.md).
    public static let version = "0.3.0"
}
